"""`tui/logs` stays UI-free and SDK-free: it loads neither Textual nor any Azure SDK."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = ("textual", "azure.ai.ml", "azure.identity", "azure.storage", "azure.core")


def test_tui_logs_imports_no_textual_and_no_azure_sdk() -> None:
    code = (
        "import sys, tui.logs, tui.logs.sources, tui.logs.assembler, tui.logs.follower\n"
        f"print([m for m in sys.modules if m.startswith({FORBIDDEN!r})])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
