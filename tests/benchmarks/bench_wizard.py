"""Wizard speed against its floors, measured side by side: process start to the first frame
(beside a bare Textual app with one Static), `import tui.app` (beside `import textual.app`), and
the review re-render at 128 × 8 ranks (beside one frame at 60 Hz).

Run: .venv/bin/python tests/benchmarks/bench_wizard.py   (prints its figures; no pass/fail)
Targets (issue 27): first frame ≤ 1.5× the bare app and < 0.3 s; import ≤ textual.app + 0.12 s;
review re-render < 16 ms with paint.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

READY = """
    def on_ready(self):
        sys.__stderr__.write("READY\\n")
        sys.__stderr__.flush()
        self.exit()
"""
# The app as `dtrain-tui` starts it, with its default backends: `backends={}` here hid that the
# local backend (the plan, the exports, YAML, httpx) was imported before the first frame.
PROBE = f"""
import sys
from tui.app import DtrainApp
class Probe(DtrainApp):{READY}
Probe().run(headless=True)
"""
BARE = f"""
import sys
from textual.app import App
from textual.widgets import Static
class Probe(App):
    def compose(self):
        yield Static("hello")
{READY}
Probe().run(headless=True)
"""


def _first_frame(code: str) -> tuple[float, float]:
    """Seconds from spawning the process to its first frame (`on_ready`), exit not included;
    and the CPU seconds of the whole process (what other processes on the machine slow least)."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    assert proc.stderr is not None
    wall = float("nan")
    for line in proc.stderr:
        if line.strip() == b"READY":
            wall = time.perf_counter() - t
            break
    proc.stderr.close()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return wall, usage.ru_utime + usage.ru_stime


def _import(module: str) -> float:
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=True,
    )
    return time.perf_counter() - t


def first_frame(runs: int = 11) -> None:
    """Product and floor in turn, run after run, so that both see the same machine."""
    m = statistics.median
    app, bare, imp, imp_floor = [], [], [], []
    for _ in range(runs):
        app.append(_first_frame(PROBE))
        bare.append(_first_frame(BARE))
        imp.append(_import("tui.app"))
        imp_floor.append(_import("textual.app"))
    wall = m(a[0] / b[0] for a, b in zip(app, bare, strict=True))
    cpu = m(a[1] / b[1] for a, b in zip(app, bare, strict=True))
    print(
        f"process start → first frame: wizard {m(a[0] for a in app):.3f} s, bare Textual app "
        f"{m(b[0] for b in bare):.3f} s: {wall:.2f}x (CPU of the whole process "
        f"{m(a[1] for a in app):.3f} s vs {m(b[1] for b in bare):.3f} s: {cpu:.2f}x)  "
        "(target ≤ 1.5x and < 0.3 s)"
    )
    print(
        f"import tui.app {m(imp):.3f} s, import textual.app {m(imp_floor):.3f} s: "
        f"+{m(a - b for a, b in zip(imp, imp_floor, strict=True)):.3f} s  (target ≤ +0.12 s)"
    )


_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def _on_screen(
    argv: list[str], text: bytes, env: dict[str, str], size: tuple[int, int] = (80, 24)
) -> float:
    """Seconds from spawning `argv` in a terminal (a pty) of `size` until `text` is drawn."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in an empty folder (no code folder to read)
        os.chdir(tempfile.gettempdir())
        os.execve(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    start, seen, took = time.perf_counter(), b"", float("nan")
    while time.perf_counter() - start < 30:
        if not select.select([fd], [], [], 0.05)[0]:
            continue
        try:
            seen += os.read(fd, 1 << 16)
        except OSError:
            break
        if text in _ESCAPE.sub(b"", seen):
            took = time.perf_counter() - start
            break
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(fd)
    return took


def terminal_first_frame(runs: int = 11, size: tuple[int, int] = (80, 24)) -> None:
    """`dtrain-tui` as a user starts it, in a terminal, until the framework step's question is
    drawn; beside a bare Textual app until its Static is drawn; in turn, run after run."""
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    bare_app = Path(tempfile.mkdtemp(prefix="bench-wizard-"), "bare.py")
    bare_app.write_text(
        "from textual.app import App\nfrom textual.widgets import Static\n"
        "class Bare(App):\n    def compose(self):\n        yield Static('a floor')\n"
        "Bare().run()\n"
    )
    wizard, bare = [], []
    for _ in range(runs):
        argv = [sys.executable, "-m", "tui"]
        wizard.append(_on_screen(argv, b"training script", env, size))
        bare.append(_on_screen([sys.executable, str(bare_app)], b"a floor", env, size))
    m = statistics.median
    print(
        f"in a {size[0]} × {size[1]} terminal, start → first screen: dtrain-tui {m(wizard):.3f} s, "
        f"bare Textual app {m(bare):.3f} s: "
        f"{m(a / b for a, b in zip(wizard, bare, strict=True)):.2f}x  (target ≤ 1.5x and < 0.3 s)"
    )


async def review_rerender(runs: int = 15) -> tuple[list[float], list[float]]:
    from tui.app import DtrainApp
    from tui.core.spec import JobSpec

    app = DtrainApp(
        JobSpec(nodes=128, gpus_per_node=8, launch="per_node"), review=True, backends={}
    )
    compute, paint, idle = [], [], []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        for i in range(runs):
            t = time.perf_counter()
            await pilot.pause()  # the test harness's own cost of waiting for an idle app
            idle.append(time.perf_counter() - t)
            t = time.perf_counter()
            app.spec = app.spec.with_changes(nodes=127 + i % 2)
            screen.render_plan(app.current_plan())
            compute.append(time.perf_counter() - t)
            await pilot.pause()
            paint.append(time.perf_counter() - t)
    # Painting = change-then-idle minus idle-with-nothing-to-do.
    return compute, [p - i for p, i in zip(paint, idle, strict=True)]


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; medians of pairs")
    first_frame()
    terminal_first_frame()
    terminal_first_frame(size=(120, 36))  # wide enough for the why panel
    compute, paint = asyncio.run(review_rerender())
    print(
        f"review re-render at 128 × 8 = 1,024 ranks after a change: "
        f"plan + widgets median {statistics.median(compute) * 1000:.1f} ms "
        f"(p95 {sorted(compute)[int(len(compute) * 0.95) - 1] * 1000:.1f} ms), "
        f"with layout and paint median {statistics.median(paint) * 1000:.1f} ms  "
        "(one frame: 16 ms)"
    )


if __name__ == "__main__":
    main()
