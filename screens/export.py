"""Writing the job to a file from the app, never over an existing file without asking.

`dtrain-tui export` refuses an existing PATH without `--force`; the app does the same in its own
way: when the file is there and would change, `ReplaceScreen` shows what would change and offers
a new name (the default), replacing it, or neither. A file that already holds this very job is
left alone.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

if TYPE_CHECKING:
    from tui.planning.plan import LaunchPlan

DIFF_LINES = 14
"""Changed lines shown at most (the rest are counted)."""


def render(plan: LaunchPlan, fmt: str, out: Path) -> str:
    """The file's text: the job YAML, the azure-ai-ml Python or the plan's JSON, with paths
    relative to the file's folder."""
    from tui.planning.export import to_json, to_yaml
    from tui.planning.sdk import to_python

    return {"yaml": to_yaml, "sdk": to_python, "json": to_json}[fmt](plan, out.parent)


def free_name(path: Path) -> Path:
    """`job-1.yml`, `job-2.yml`, … : the first that does not exist beside `path`."""
    n = 1
    while (candidate := path.with_name(f"{path.stem}-{n}{path.suffix}")).exists():
        n += 1
    return candidate


def export(app: Any, plan: LaunchPlan, fmt: str, path: str) -> None:
    """Write `plan` as `fmt` to `path`; an existing file that would change is asked about."""
    out = Path(path).expanduser()
    if not out.parent.is_dir():
        app.notify(f"{out.parent}: no such folder", severity="error")
        return
    text = render(plan, fmt, out)
    if not out.exists():
        write(app, plan, out, text)
        return
    try:
        old = out.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        app.notify(f"{out}: {err.strerror}", severity="error")
        return
    if old == text:
        app.notify(f"{out} already holds this job; left as it is")
        return

    def chosen(target: Path | None) -> None:
        if target is not None:
            write(app, plan, target, text if target == out else render(plan, fmt, target))

    app.push_screen(ReplaceScreen(out, old, text), chosen)


def write(app: Any, plan: LaunchPlan, out: Path, text: str) -> Path | None:
    """Write atomically (0600 when an env name looks secret) and say where."""
    from tui.core.files import PRIVATE, PUBLIC, holds_secrets, write_atomic

    try:  # a full disk or a refused write leaves the old file as it was
        write_atomic(out, text, PRIVATE if holds_secrets(plan.env_vars) else PUBLIC)
    except OSError as err:
        app.notify(f"{out}: {err.strerror}", severity="error")
        return None
    app.notify(f"Wrote {out}")
    return out


def changes(old: str, new: str, limit: int = DIFF_LINES) -> Text:
    """The lines that differ, `-` removed and `+` added, at most `limit` of them."""
    lines = [
        line
        for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    out = Text()
    for line in lines[:limit]:
        out.append(line + "\n", style="green" if line.startswith("+") else "red")
    if len(lines) > limit:
        out.append(f"… and {len(lines) - limit} more changed lines", style="dim")
    return out


class ReplaceScreen(ModalScreen[Path | None]):
    """`PATH exists`: what replacing it would change; dismisses with the path to write (a new
    name, or PATH itself) or None."""

    DEFAULT_CSS = """
    ReplaceScreen { align: center middle; }
    ReplaceScreen > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 90%; padding: 1 2;
        border: thick $warning; background: $surface;
    }
    ReplaceScreen .question { text-style: bold; }
    ReplaceScreen #changes { height: auto; max-height: 16; margin-top: 1; overflow-y: auto; }
    ReplaceScreen Horizontal { height: auto; margin-top: 1; }
    ReplaceScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar = [
        Binding("n", "choose('new')", "New name"),
        Binding("r", "choose('replace')", "Replace"),
        Binding("escape", "choose('none')", "Cancel"),
    ]
    AUTO_FOCUS = "#new"

    def __init__(self, path: Path, old: str, new: str) -> None:
        super().__init__()
        self.path, self.old, self.new = path, old, new
        self.new_path = free_name(path)
        """Where "new name" writes."""

    def compose(self) -> ComposeResult:
        name, other = self.path.name, self.new_path.name
        with Vertical():
            yield Label(f"{name} exists: replacing it changes", classes="question")
            yield Static(changes(self.old, self.new), id="changes")
            with Horizontal():
                yield Button(f"Save as {other}", id="new", variant="primary")
                yield Button(f"Replace {name}", id="replace", variant="error")
                yield Button("Cancel", id="none")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose(event.button.id or "none")

    def action_choose(self, what: str) -> None:
        self.dismiss({"new": self.new_path, "replace": self.path}.get(what))
