"""A plan as terminal text for `dtrain-tui preview`: summary, why, commands, env per rank, warnings.

Rich styles when stdout is a terminal, plain text when piped; one write per section so a
1,024-rank env listing stays fast.
"""

from __future__ import annotations

from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

from tui.core.plan import EnvVar, LaunchPlan, Origin, describe

ORIGIN_STYLE = {
    Origin.AZUREML: "cyan",
    Origin.TORCHRUN: "magenta",
    Origin.ACCELERATE: "magenta",
    Origin.OPENMPI: "yellow",
    Origin.COMMAND: "blue",
    Origin.USER: "green",
    Origin.LIGHTNING: "bright_magenta",
    Origin.DEEPSPEED: "bright_magenta",
    Origin.TENSORFLOW: "bright_magenta",
}


def _heading(text: str) -> Text:
    out = Text()
    out.append(text, style="bold underline")
    return out


def summary(p: LaunchPlan) -> Text:
    out = Text()
    out.append(describe(p) + "\n", style="bold")
    for line in p.explanations:
        out.append("  • " + line + "\n")
    return out


def warnings(p: LaunchPlan) -> Text:
    out = Text()
    if p.warnings:
        out.append_text(_heading("Warnings"))
        out.append("\n")
        for w in p.warnings:
            out.append("  ! ", style="bold yellow")
            out.append(w + "\n", style="yellow")
    return out


def commands(p: LaunchPlan) -> Text:
    out = _heading("Command")
    out.append(f"\n  {p.command}\n", style="bold")
    distinct = {n.command for n in p.nodes}
    if distinct != {p.command}:
        out.append_text(_heading("On each node"))
        out.append("\n")
        for n in p.nodes:
            out.append(f"  node {n.node}: ", style="dim")
            out.append(n.command + "\n")
    return out


def _env_lines(out: Text, env: tuple[EnvVar, ...], width: int) -> None:
    for v in env:
        out.append(f"    {v.name:<{width}} ")
        out.append(f"{v.value:<16} ")
        out.append(v.origin.value, style=ORIGIN_STYLE.get(v.origin, ""))
        if v.note:
            out.append(f" ({v.note})", style="dim")
        out.append("\n")


def env(p: LaunchPlan) -> Text:
    out = _heading("Env per rank")
    out.append("  (value, then who sets it)\n", style="dim")
    width = max((len(v.name) for r in p.ranks[:1] for v in r.env), default=10)
    for r in p.ranks:
        label = f"  rank {r.rank} · node {r.node} · local rank {r.local_rank}"
        if r.role != "worker" or p.spec.framework == "tensorflow":
            label = f"  {r.role} {r.task_index} · node {r.node}"
        out.append(label, style="bold")
        out.append(f" · {r.log_file}\n", style="dim")
        _env_lines(out, r.env, width)
    return out


def print_plan(p: LaunchPlan, show: str, console: Console) -> None:
    """Print the sections `show` names (command, env, yaml, sdk, json, all)."""
    from tui.core.export import to_json, to_yaml
    from tui.core.sdk import to_python

    if show == "json":
        console.file.write(to_json(p))
        return
    sections = {"command", "env", "yaml", "sdk"} if show == "all" else {show}
    console.print(summary(p), end="")
    if "command" in sections:
        console.print(commands(p), end="")
    if "env" in sections:
        console.print(env(p), end="")
    if "yaml" in sections:
        console.print(_heading("Job YAML"))
        _code(console, to_yaml(p), "yaml")
    if "sdk" in sections:
        console.print(_heading("Python (azure-ai-ml)"))
        _code(console, to_python(p), "python")
    console.print(warnings(p), end="")


def _code(console: Console, text: str, lexer: str) -> None:
    if console.is_terminal:
        console.print(Syntax(text, lexer, theme="ansi_dark", word_wrap=True))
    else:
        console.file.write(text)
