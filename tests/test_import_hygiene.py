"""The core stays free of UI and cloud code; starting the CLI does not pay for azure.ai.ml."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted(
    f"tui.{p.parent.name}.{p.stem}"
    for sub in ("core", "logs")
    for p in (ROOT / "tui" / sub).glob("*.py")
    if p.stem != "__init__"
)
FORBIDDEN = ("textual", "azure.ai.ml", "azure.identity", "screens", "widgets")


def loaded_after(statement: str) -> list[str]:
    probe = (
        f"import sys\n{statement}\n"
        f"print('\\n'.join(m for m in sys.modules if m.split('.')[0] in "
        f"{{'textual', 'screens', 'widgets'}} or m.startswith(('azure.ai.ml', 'azure.identity'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    return out.stdout.split()


def test_the_core_list_is_not_empty():
    assert {"tui.core.spec", "tui.core.plan", "tui.core.export", "tui.logs.sources"} <= set(CORE)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_ui_and_no_azure(module):
    assert loaded_after(f"import {module}") == []


def test_cli_preview_path_does_not_import_azure_or_textual():
    statement = (
        "import contextlib, io; from tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['preview', '--show', 'all'])"
    )
    assert loaded_after(statement) == []


def test_starting_the_wizard_does_not_import_azure_ml():
    """azure.ai.ml costs over a second to import; the wizard must reach its first frame without."""
    statement = (
        "from tui.app import DtrainApp\n"
        "class Probe(DtrainApp):\n"
        "    def on_ready(self):\n"
        "        self.exit()\n"
        "Probe(backends={}).run(headless=True)"
    )
    loaded = loaded_after(statement)
    assert not [m for m in loaded if m.startswith(("azure.ai.ml", "azure.identity"))]
    assert "textual" in loaded  # the probe really started the app
