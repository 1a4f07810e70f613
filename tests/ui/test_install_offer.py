"""The pre-flight's offer to install a missing framework (issue 26, item 14): the Submit step
shows the exact pip command, runs it only when asked, with a progress bar through pip's stages,
then checks again and runs the job here. A fake pip (a script standing in for `python -m pip`)
prints what pip prints; nothing is downloaded."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from textual.widgets import Button, ProgressBar, Static

from screens.install_offer import InstallOffer
from screens.submit import SubmitScreen
from tui.core.spec import JobSpec
from tui.planning.preflight import CPU_TORCH, Finding, check_local

from .conftest import make_app
from .waits import on_screen, until

FAKE_PIP = """#!{python}
import json, sys, time
json.dump(sys.argv[1:], open({record!r}, "w"))
for line in [
    "Obtaining file:///src",
    "Collecting torch>=2.4 (from dtrain-tui==0.1.0)",
    "  Downloading torch-2.13.0+cpu-cp311-cp311-linux_x86_64.whl (190.2 MB)",
    "Installing collected packages: torch, dtrain-tui",
    "Successfully installed dtrain-tui-0.1.0 torch-2.13.0+cpu",
][: {lines}]:
    print(line, flush=True)
    time.sleep(0.3)
if {fail}:
    print("ERROR: No matching distribution found for torch>=2.4", flush=True)
sys.exit(1 if {fail} else 0)
"""


def fake_pip(tmp_path: Path, fail: bool = False) -> tuple[Path, Path]:
    record = tmp_path / "pip-argv.json"
    script = tmp_path / "fake-python"
    lines = 2 if fail else 5
    script.write_text(
        FAKE_PIP.format(python=sys.executable, record=str(record), lines=lines, fail=fail)
    )
    script.chmod(0o755)
    return script, record


def torch_missing(python: Path) -> Finding:
    fix = f"{python} -m pip install -e '.[torch]' --extra-index-url {CPU_TORCH}"
    argv = (str(python), "-m", "pip", "install", "-e", ".[torch]", "--extra-index-url", CPU_TORCH)
    return Finding("torch is not installed in .venv/bin/python", fix, install=argv)


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_the_offer_shows_the_command_installs_with_a_bar_then_runs_here(tmp_path):
    python, record = fake_pip(tmp_path)
    answers: list = []
    rechecks: list = []
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = SubmitScreen(
            "here",
            "",
            False,
            local_findings=[torch_missing(python)],
            recheck=lambda: rechecks.append(1) or [],
        )
        app.push_screen(screen, answers.append)
        await until(pilot, lambda: on_screen(app, SubmitScreen), "the submit dialog")
        shown = text_of(screen, "#install-command")
        assert f"runs: {python} -m pip install -e '.[torch]' --extra-index-url {CPU_TORCH}" in (
            " ".join(shown.split())
        )
        # the focus is on what can work (issue 40, item 8)
        await until(pilot, lambda: app.focused.id == "install", "the focus on Install")
        await pilot.click("#ok")  # Submit: the missing torch still stops it
        assert app.screen is screen and not record.exists()  # nothing ran unasked

        await pilot.click("#install")
        bar = screen.query_one(ProgressBar)
        await until(pilot, lambda: 0 < (bar.progress or 0) < bar.total, "the bar moving")
        assert bar.display and "Collecting torch" in text_of(screen, "#install-line")
        await until(pilot, lambda: answers, "the run going on")
    assert answers == ["local"] and rechecks == [1]
    assert json.loads(record.read_text()) == [
        "-m", "pip", "install", "-e", ".[torch]", "--extra-index-url", CPU_TORCH,
    ]  # fmt: skip


async def test_a_failed_install_says_what_pip_said_and_stays(tmp_path):
    python, _ = fake_pip(tmp_path, fail=True)
    answers: list = []
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = SubmitScreen("here", "", False, local_findings=[torch_missing(python)])
        app.push_screen(screen, answers.append)
        await until(pilot, lambda: on_screen(app, SubmitScreen), "the submit dialog")
        await pilot.click("#install")
        offer = screen.query_one(InstallOffer)
        await until(pilot, lambda: "failed" in text_of(offer, "#install-error"), "the failure")
        assert "No matching distribution found for torch" in text_of(offer, "#install-error")
        assert not screen.query_one("#install", Button).disabled  # it can be tried again
        assert app.screen is screen and not answers


def test_a_missing_framework_comes_with_the_argv_of_its_fix(tmp_path):
    """The pre-flight, asked of a Python without torch, gives the pip line as a command to run."""
    import subprocess

    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    python = bare / "bin" / "python"
    (tmp_path / "train.py").write_text("import torch\n")
    from tui.planning.plan import Target, plan

    spec = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(tmp_path), script="train.py")
    p = plan(spec, Target.for_spec("local", spec))
    (found,) = [f for f in check_local(p, str(python)) if f.problem.startswith("torch ")]
    assert found.install[:5] == (str(python), "-m", "pip", "install", "torch")
    assert found.fix == " ".join(["bare/bin/python", *found.install[1:]])  # as seen from here
    on_linux_cpu = sys.platform == "linux" and not any(
        Path(d, "nvidia-smi").exists() for d in os.environ["PATH"].split(os.pathsep)
    )
    assert (CPU_TORCH in found.install) is on_linux_cpu
