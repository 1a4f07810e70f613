"""A plan as terminal text for `dtrain-tui preview`: summary, why, price, commands, env per rank,
warnings.

Rich styles when stdout is a terminal, plain text when piped. Ranks are written a batch at a
time as they are built, so memory stays flat however many ranks the plan has; on a terminal,
control characters in the job's values are shown escaped (`tui.cli.terminal`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

from tui.cli.terminal import VisibleWriter, visible
from tui.core.marks import spans
from tui.planning.plan import EnvVar, LaunchPlan, Origin, describe

Clean = Callable[[str], str]
_BATCH = 256  # ranks per write: few writes, and memory bounded by one batch


def _same(text: str) -> str:
    return text


_KIND_STYLE = {
    "platform": "cyan",
    "launcher": "magenta",
    "command": "blue",
    "user": "green",
    "framework": "bright_magenta",  # set inside the process by the framework itself
}


def origin_style(origin: Origin) -> str:
    """A colour per kind of origin; Open MPI its own, beside the launchers it starts."""
    return "yellow" if origin is Origin.OPENMPI else _KIND_STYLE.get(origin.kind, "")


class _Plain:
    """What `Text` offers the functions below, for piped output: the strings as they are.

    Rich's `Text` drops some control characters (BEL, backspace, CR); piped output must be
    byte-exact, so it is built from plain strings instead.
    """

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: list[str] = []

    def append(self, text: str, style: str | None = None) -> _Plain:
        self.parts.append(text)
        return self

    def append_text(self, other: _Plain) -> None:
        self.parts.extend(other.parts)

    def __str__(self) -> str:
        return "".join(self.parts)


Out = Text | _Plain


def _new(clean: Clean) -> Out:
    return _Plain() if clean is _same else Text()


def _heading(text: str, clean: Clean = _same) -> Out:
    out = _new(clean)
    out.append(text, style="bold underline")
    return out


_MARK_STYLE = {"bold": "bold", "italic": "italic", "code": "bold cyan"}


def _said(out: Out, line: str, clean: Clean, style: str = "") -> None:
    """An explanation or warning with its marks as styles (plain words when piped)."""
    for words, mark in spans(line):
        out.append(clean(words), style=" ".join(filter(None, (style, _MARK_STYLE.get(mark)))))
    out.append("\n")


def summary(p: LaunchPlan, clean: Clean = _same) -> Out:
    out = _new(clean)
    out.append(clean(describe(p)) + "\n", style="bold")
    for line in p.explanations:
        out.append("  • ")
        _said(out, line, clean)
    return out


def price(p: LaunchPlan, clean: Clean = _same) -> Out:
    """`Price: $54.39/h dedicated, … (…; Azure retail prices, eastus, 2026-11-09 snapshot)` on
    Azure ML; nothing for this machine."""
    from tui.core.prices import plan_price

    out = _new(clean)
    priced = plan_price(p)
    if priced is not None:
        out.append("Price: ", style="bold")
        out.append(clean(priced.line()) + "\n")
    return out


def warnings(p: LaunchPlan, clean: Clean = _same) -> Out:
    out = _new(clean)
    if p.warnings:
        out.append_text(_heading("Warnings", clean))
        out.append("\n")
        for w in p.warnings:
            out.append("  ! ", style="bold yellow")
            _said(out, w, clean, "yellow")
    return out


def commands(p: LaunchPlan, clean: Clean = _same) -> Out:
    out = _heading("Command", clean)
    out.append(f"\n  {clean(p.command)}\n", style="bold")
    distinct = {n.command for n in p.nodes}
    if distinct != {p.command}:
        out.append_text(_heading("On each node", clean))
        out.append("\n")
        for n in p.nodes:
            out.append(f"  node {n.node}: ", style="dim")
            out.append(clean(n.command) + "\n")
    return out


def _env_lines(out: Out, env: tuple[EnvVar, ...], width: int, clean: Clean) -> None:
    for v in env:
        out.append(f"    {clean(v.name):<{width}} ")
        out.append(f"{clean(v.value):<16} ")
        out.append(v.origin.value, style=origin_style(v.origin))
        if v.note:
            out.append(f" ({clean(v.note)})", style="dim")
        out.append("\n")


def env(p: LaunchPlan, clean: Clean = _same) -> Iterator[Out]:
    """The env of every rank, a batch of ranks at a time (each built, printed, then dropped)."""
    out = _heading("Env per rank", clean)
    out.append("  (value, then who sets it)\n", style="dim")
    width = max((len(v.name) for r in p.ranks[:1] for v in r.env), default=10)
    for start in range(0, len(p.ranks), _BATCH):
        for i in range(start, min(start + _BATCH, len(p.ranks))):
            r = p.ranks[i]
            label = f"  rank {r.rank} · node {r.node} · local rank {r.local_rank}"
            if r.role != "worker" or p.tasks:
                label = f"  {r.role} {r.task_index} · node {r.node}"
            out.append(label, style="bold")
            out.append(f" · {r.log_file}\n", style="dim")
            _env_lines(out, r.env, width, clean)
        yield out
        out = _new(clean)


def print_plan(p: LaunchPlan, show: str, console: Console) -> None:
    """Print the sections `show` names (command, env, yaml, sdk, json, all)."""
    from tui.planning.export import to_yaml, write_json
    from tui.planning.sdk import to_python

    clean = visible if console.is_terminal else _same

    def put(out: Out) -> None:
        if isinstance(out, _Plain):
            console.file.write(str(out))
        else:
            console.print(out, end="")

    if show == "json":
        write_json(p, VisibleWriter(console.file) if console.is_terminal else console.file)
        return
    sections = {"command", "env", "yaml", "sdk"} if show == "all" else {show}
    put(summary(p, clean))
    put(price(p, clean))
    if "command" in sections:
        put(commands(p, clean))
    if "env" in sections:
        for part in env(p, clean):
            put(part)
    if "yaml" in sections:
        put(_heading("Job YAML\n", clean))
        _code(console, to_yaml(p), "yaml")
    if "sdk" in sections:
        put(_heading("Python (azure-ai-ml)\n", clean))
        _code(console, to_python(p), "python")
    put(warnings(p, clean))


def _code(console: Console, text: str, lexer: str) -> None:
    """Code coloured on a terminal, each line whole: the terminal wraps a long line itself, so
    what is copied from the screen is the file (a `Syntax` renderable crops or breaks lines at
    the console's width, and a cut `command:` reads as another job). Piped: the text as it is."""
    if console.is_terminal:
        shown = visible(text)
        console.print(Syntax(shown, lexer, theme="ansi_dark").highlight(shown), soft_wrap=True)
    else:
        console.file.write(text)
