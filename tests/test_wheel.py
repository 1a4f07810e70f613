"""The wheel `python -m build` makes installs into a fresh venv and starts outside the checkout.

Built from this tree (`--no-isolation`: hatchling from the test extra, so nothing is downloaded),
installed with `--no-deps --no-index` into a new venv that sees this venv's packages for its
dependencies (a path line in a .pth file, which does not run this venv's own .pth files, so the
editable install of the checkout stays out of sight), then run from an empty folder elsewhere:
`dtrain-tui preview --preset pytorch-ddp` and the wizard's first frame, with the presets, the
example scripts and app.tcss read from the installed package.
"""

from __future__ import annotations

import html
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("tui", "screens", "widgets", "presets")

FIRST_FRAME = """
import asyncio, sys
from pathlib import Path
import tui
from tui.app import DtrainApp

async def main():
    app = DtrainApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        print("CSS", DtrainApp.CSS_PATH, Path(DtrainApp.CSS_PATH).is_file())
        print("TUI", Path(tui.__file__).parent)
        print(app.export_screenshot())

asyncio.run(main())
"""


def _run(args: list[str], cwd: Path, what: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the new venv's bin folder) with the wheel installed there."""
    try:
        import build  # noqa: F401
        import hatchling  # noqa: F401
    except ImportError as err:
        pytest.fail(
            f"{err.name} is not installed: run `bash tests/setup.sh` (the test extra has it)"
        )
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    _run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), "."],
        ROOT,
        "python -m build --wheel",
    )
    (wheel,) = dist.glob("dtrain_tui-*.whl")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, "python -m venv")
    python = venv / "bin" / "python"
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            tmp,
            "the new venv's site-packages",
        ).stdout.strip()
    )
    (site / "dependencies_from_the_test_venv.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         "--no-index", str(wheel)],
        tmp,
        "pip install the wheel",
    )  # fmt: skip
    return wheel, venv / "bin"


def test_the_wheel_holds_every_shipped_file_that_is_not_python(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in SHIPPED:
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                assert path.relative_to(ROOT).as_posix() in names, path
    for needed in ("tui/app.tcss", "presets/jobs/pytorch-ddp.yaml", "presets/scripts/train_ddp.py"):
        assert needed in names


def test_preview_runs_from_a_folder_outside_the_checkout(installed, tmp_path: Path):
    _, bin_dir = installed
    done = _run(
        [str(bin_dir / "dtrain-tui"), "preview", "--preset", "pytorch-ddp"],
        tmp_path,
        "dtrain-tui preview --preset pytorch-ddp",
    )
    assert "train_ddp.py" in done.stdout
    assert "Price: $54.39/h dedicated" in done.stdout  # presets/prices.json is in the wheel
    assert not list(tmp_path.iterdir()), "preview wrote into the folder it ran from"


def test_the_first_frame_comes_from_the_installed_package(installed, tmp_path: Path):
    _, bin_dir = installed
    done = _run([str(bin_dir / "python"), "-c", FIRST_FRAME], tmp_path, "the wizard's first frame")
    lines = done.stdout.splitlines()
    css = next(line for line in lines if line.startswith("CSS "))
    package = Path(next(line for line in lines if line.startswith("TUI ")).removeprefix("TUI "))
    assert package.is_relative_to(bin_dir.parent), f"tui was imported from {package}"
    assert css.endswith(" True") and str(bin_dir.parent) in css, css
    screen = html.unescape(done.stdout).replace("\xa0", " ")  # the SVG's text, spaces as spaces
    assert "What does your training script use" in screen
    assert "1 Framework" in screen


def test_an_installed_wheel_names_the_packages_an_extra_needs(installed, tmp_path: Path):
    """`dtrain-tui[azure]` is no published package (issue 40, item 7): an installed wheel's hint
    names the extra's packages, as its metadata lists them."""
    _, bin_dir = installed
    show = "from tui.planning.preflight import extra_install; print(extra_install('azure'))"
    done = _run([str(bin_dir / "python"), "-c", show], tmp_path, "the Azure ML install hint")
    hint = done.stdout.strip()
    assert "-m pip install 'azure-ai-ml>=" in hint and "'azure-identity>=" in hint, hint
    assert "dtrain-tui[" not in hint, hint
