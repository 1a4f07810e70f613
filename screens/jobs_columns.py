"""The jobs list's columns: each job's cells, and which columns fit the screen's width.

The cause or summary (the last column, the longest words) is cut with an ellipsis where the
screen ends; when even its fewest cells (`LAST_COLUMN_MIN`) do not fit, columns drop from the
right, the last kept, until they do (WHERE, NAME and STATUS always stay). Rich text only, no
Textual: the screen passes its theme's colours in.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
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
BOLD = "bold"
"""A cell's look that is no theme colour: bold."""

Fact = tuple[str, str]
"""A cell as plain data: its text, and the theme variable that colours it (`BOLD`: bold;
"": plain). Two rows of equal facts draw alike, so a refresh compares these, not `Text`s."""


def row_facts(row: JobRow, last: str) -> tuple[Fact, ...]:
    """One job's cells as facts, every column; `last` is its cause or summary. A stalled job's
    progress is marked and its last cell says since when."""
    progress = row.progress
    last_var = "error" if row.state is JobState.FAILED else "text-muted"
    progress_var = ""
    if progress is not None and progress.stalled is not None and not row.state.is_terminal:
        last, last_var, progress_var = progress.stall_words(), "warning", "warning"
    texts = progress.texts() if progress is not None else ("",) * 5
    return (
        (row.where, "text-muted"),
        (row.handle.name, BOLD),
        (row.state.value, STATE_VAR[row.state]),
        (age(row.created_at), ""),
        (row.script or NONE, ""),
        (texts[0] or NONE, progress_var),
        (texts[1] or NONE, ""),
        (texts[2] or NONE, ""),
        (texts[3] or NONE, ""),
        (row.shape or NONE, ""),
        (last, last_var),
    )


def cell(fact: Fact, color: Callable[[str], Style], cut: int | None = None) -> Text:
    """One cell to draw; `color` gives a theme variable's style; `cut`: at most that many
    cells, ending in an ellipsis."""
    text, look = fact
    style = Style(bold=True) if look == BOLD else color(look) if look else Style()
    out = Text(text, style=style)
    if cut is not None:
        out.truncate(cut, overflow="ellipsis")
    return out


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


def fit(rows: list[tuple[Fact, ...]], width: int, pad: int) -> tuple[list[int], int | None]:
    """The columns that fit `width` cells (their indices in `COLUMNS`, the last column's
    always last) and the cells the last is cut to; `pad` is the cells a column adds around its
    text. `width` 0 (not laid out yet): every column, uncut (None)."""
    if not width:
        return list(range(len(COLUMNS))), None
    widths = [
        max([len(label), *(cell_len(facts[i][0]) for facts in rows)]) + pad
        for i, label in enumerate(COLUMNS[:-1])
    ]
    kept = list(range(len(COLUMNS) - 1))
    while len(kept) > ALWAYS and sum(widths[i] for i in kept) + pad + LAST_COLUMN_MIN > width:
        kept.pop()
    used = sum(widths[i] for i in kept)
    return [*kept, len(COLUMNS) - 1], max(width - used - pad, LAST_COLUMN_MIN)
