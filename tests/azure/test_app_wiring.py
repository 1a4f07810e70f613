"""The app offers Azure ML when azure-ai-ml is installed, without importing it to start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_default_backends_offer_azureml_without_importing_the_sdk() -> None:
    probe = (
        "import sys\n"
        "from tui.app import DtrainApp, default_backends\n"
        "backends = default_backends()\n"
        "class Probe(DtrainApp):\n"
        "    def on_ready(self):\n"
        "        self.exit()\n"
        "Probe(backends=backends).run(headless=True)\n"
        "print(sorted(backends))\n"
        "print([m for m in sys.modules if m.startswith(('azure.ai.ml', 'azure.identity'))])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines() == ["['azureml', 'local']", "[]"]


def test_the_factory_keeps_one_backend() -> None:
    from tui.app import default_backends

    factory = default_backends()["azureml"]
    assert factory() is factory()
