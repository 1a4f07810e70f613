"""The jobs list's columns: each job's cells, and which columns fit the screen's width.

The cause or summary (the last column, the longest words) is cut with an ellipsis where the
screen ends; when even its fewest cells (`LAST_COLUMN_MIN`) do not fit, columns drop from the
right, the last kept, until they do (WHERE, NAME and STATUS always stay). Rich text only, no
Textual: the screen passes its theme's colours in.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text

from screens.jobs_rows import JobRow, age
from tui.backends.base import JobState

COLUMNS = (
    "WHERE", "NAME", "STATUS", "AGE", "SCRIPT", "PROGRESS", "ETA", "COST", "TO FINISH",
    "NODES × GPUS", "CAUSE / WHAT",
)  # fmt: skip
ALWAYS = 3
"""The first columns never dropped (where, name, state)."""
LAST_COLUMN_MIN = 16
"""The fewest cells the cause or summary is cut to: below it columns drop."""
NONE = "–"
"""A cell whose fact is not known (never a guessed number)."""


def row_cells(row: JobRow, last: str, color: Callable[[str], Style]) -> list[Text]:
    """One job's cells, every column; `last` is its cause or summary; `color` gives a theme
    variable's style. A stalled job's progress is marked and its last cell says since when."""
    progress = row.progress
    failed = row.state is JobState.FAILED
    last_style = color("error" if failed else "text-muted")
    progress_style = Style()
    if progress is not None and progress.stalled is not None and not row.state.is_terminal:
        last, last_style = progress.stall_words(), color("warning")
        progress_style = color("warning")

    def fact(text: str, style: Style | None = None) -> Text:
        return Text(text or NONE, style=style or "")

    return [
        Text(row.where, style=color("text-muted")),
        Text(row.handle.name, style="bold"),
        Text(row.state.value, style=color(STATE_VAR[row.state])),
        Text(age(row.created_at)),
        fact(row.script),
        fact(progress.progress_text() if progress else "", progress_style),
        fact(progress.eta_text() if progress else ""),
        fact(progress.cost_text() if progress else ""),
        fact(progress.to_finish_text() if progress else ""),
        fact(row.shape),
        Text(last, style=last_style),
    ]


STATE_VAR = {
    JobState.QUEUED: "text-muted",
    JobState.STARTING: "warning",
    JobState.RUNNING: "success",
    JobState.COMPLETED: "success",
    JobState.FAILED: "error",
    JobState.CANCELED: "warning",
    JobState.UNKNOWN: "text-muted",
}
"""The theme variable that colours each state's word."""


def fit(rows: list[list[Text]], width: int, pad: int) -> tuple[list[int], list[list[Text]]]:
    """The columns that fit `width` cells (their indices in `COLUMNS`) and each row's cells in
    them, the last cut with an ellipsis; `pad` is the cells a column adds around its text.
    `width` 0 (not laid out yet): every column, uncut."""
    if not width:
        return list(range(len(COLUMNS))), rows
    widths = [
        max([len(label), *(cells[i].cell_len for cells in rows)]) + pad
        for i, label in enumerate(COLUMNS[:-1])
    ]
    kept = list(range(len(COLUMNS) - 1))
    while len(kept) > ALWAYS and sum(widths[i] for i in kept) + pad + LAST_COLUMN_MIN > width:
        kept.pop()
    used = sum(widths[i] for i in kept)
    kept.append(len(COLUMNS) - 1)
    out = []
    for cells in rows:
        shown = [cells[i] for i in kept]
        shown[-1].truncate(max(width - used - pad, LAST_COLUMN_MIN), overflow="ellipsis")
        out.append(shown)
    return kept, out
