"""The README's one command (issue 26, item 14) installs what the quick start's first example
needs, so the first run reaches rank 0's loss line instead of stopping at the pre-flight: the
`torch` extra (torch and numpy), the CPU build's index, and then the app."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

from tui.core.spec import JobSpec
from tui.planning.plan import Target, plan
from tui.planning.preflight import CPU_TORCH, needed_modules, packages
from tui.planning.presets import samples_dir

ROOT = Path(__file__).resolve().parents[1]


def run_line() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run it", 1)[1]
    block = re.search(r"```bash\n(.+?)\n```", section, re.S)
    assert block, "README's Run it section needs its ```bash line"
    return block.group(1)


def test_the_run_line_takes_only_torch_from_the_cpu_index_says_the_build_then_starts_the_app():
    """Only torch comes from the CPU index, pinned as the test set-up pins it, with few retries
    (an unreachable index stops the line instead of pip falling back to the CUDA build after
    hundreds of tries, issue 40 item 6); the rest from PyPI; then one line names the build."""
    pin = re.search(r"'torch==([\d.]+)'", (ROOT / "tests" / "setup.sh").read_text()).group(1)
    steps = [s.strip() for s in run_line().split("&&")]
    assert steps[0] == "python3 -m venv .venv"
    assert steps[1] == (
        f".venv/bin/pip install --retries 2 --timeout 20 --index-url {CPU_TORCH} 'torch=={pin}'"
    )
    assert steps[2] == ".venv/bin/pip install -e '.[torch]'"
    assert "torch.version.cuda" in steps[3] and "CPU build" in steps[3]
    assert steps[4] == ".venv/bin/dtrain-tui"


def test_the_torch_extra_holds_everything_the_first_example_imports():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=;\[ ]", r, maxsplit=1)[0] for r in extras["torch"]}
    assert {"torch", "numpy"} <= names
    first = JobSpec(
        sku=None, nodes=2, gpus_per_node=2, code=str(samples_dir()), script="train_ddp.py"
    )
    needed = needed_modules(plan(first, Target.for_spec("local", first)))
    assert needed and all(packages()[m][1] == "torch" for m in needed), needed
