"""A table of GPU VM sizes that knows InfiniBand, with an "InfiniBand only" filter."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from tui.core.catalog import Sku, skus

UNLISTED = "(other size)"


class SkuTable(DataTable):
    """VM sizes with GPU model, count, memory and interconnect. Posts `SkuChosen` on highlight."""

    DEFAULT_CSS = """
    SkuTable { height: 1fr; min-height: 6; }
    """

    ib_only: reactive[bool] = reactive(False)
    """Show only sizes whose InfiniBand NCCL can use (SR-IOV)."""

    class SkuChosen(Message):
        """The highlighted size changed; `sku` is None for "not listed"."""

        def __init__(self, sku: Sku | None) -> None:
            super().__init__()
            self.sku = sku

    def __init__(self, selected: str | None, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._selected = selected

    def on_mount(self) -> None:
        self.add_columns("Standard_…", "GPUs", "GPU", "InfiniBand")
        self._fill()

    def watch_ib_only(self) -> None:
        if self.is_mounted:
            self._fill()

    def select(self, name: str | None) -> None:
        self._selected = name
        key = name or UNLISTED
        if key in self.rows:
            self.move_cursor(row=self.get_row_index(key), scroll=True)

    def _fill(self) -> None:
        """The sizes, "(other size)" first: a job with no size (this machine, or a size not
        listed) opens with the table at its top, the H100 and A100 sizes in view."""
        self.clear()
        self.add_row(Text(UNLISTED, style="italic"), "", "", "", key=UNLISTED)
        for sku in skus():
            if self.ib_only and not sku.nccl_can_use_infiniband:
                continue
            ib = sku.interconnect
            style = "green" if sku.nccl_can_use_infiniband else ("yellow" if sku.rdma else "dim")
            name = Text(sku.name.removeprefix("Standard_"), style="dim" if sku.retired else "")
            self.add_row(
                name.append(" (retired)" if sku.retired else ""),
                str(sku.gpus),
                " ".join(sku.gpu_model.split()[:2]),
                Text(ib, style=style),
                key=sku.name,
            )
        self.select(self._selected)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        key = event.row_key.value
        from tui.core.catalog import find_sku

        self.post_message(self.SkuChosen(None if key == UNLISTED else find_sku(key)))
