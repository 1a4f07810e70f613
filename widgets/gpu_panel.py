"""`GpuPanel`: each GPU's use beside the rank strip, and what stands out among them.

What it shows is pushed in (`show()`): the newest sample of every GPU (`0 97 % 30.8/80 GB`),
and `tui.logs.gpus.GpuWatch.finding()` in the warning colour when one GPU idles while its peers
work. `no_gpu()` says once, muted, that this machine has no GPU to sample. It reads no logs.
"""

from __future__ import annotations

from textual.markup import escape
from textual.widgets import Static


class GpuPanel(Static):
    """Hidden until there is something to say about the job's GPUs."""

    DEFAULT_CSS = """
    GpuPanel { display: none; height: auto; padding: 0 1; background: $panel; }
    GpuPanel.-shown { display: block; }
    """

    def show(self, summary: str, finding: str | None) -> None:
        """The GPUs' newest use, and the finding (None: nothing stands out)."""
        text = f"[b]GPUs[/b] {escape(summary)}"
        if finding:
            text += f"\n[$warning]{escape(finding)}[/]"
        self.update(text)
        self.add_class("-shown")
