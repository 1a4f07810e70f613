"""The table `dtrain-tui jobs` prints without a UI (here and on Azure ML): every column the
jobs list has, how far, how long and how much included, none dropped for width."""

from __future__ import annotations

from typing import Any

PROGRESS_COLUMNS = ("PROGRESS", "ETA", "COST", "TO FINISH")
"""How far, how long, how much: the jobs list's columns, kept whole in the table."""


def progress_cells(row: Any) -> tuple[str, ...]:
    """A `JobRow`'s progress, ETA, cost so far and cost to finish (`–`: not known)."""
    p = row.progress
    texts = (p.progress_text(), p.eta_text(), p.cost_text(), p.to_finish_text()) if p else ()
    return tuple(text or "–" for text in texts) or ("–",) * len(PROGRESS_COLUMNS)


def what(row: Any) -> str:
    """What the job is, after since when it has not moved where it stalls."""
    stall = row.progress.stall_words() if row.progress else ""
    return " · ".join(x for x in (stall, row.what) if x)


def print_table(rows: list[tuple[str, ...]]) -> None:
    """Columns padded to their widest cell; the last (the longest words) left unpadded."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)), row[-1])
