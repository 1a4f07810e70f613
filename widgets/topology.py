"""Nodes drawn as boxes with their GPUs and ranks, and which node is the master."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from tui.core.words import counted
from tui.planning.plan import LaunchPlan
from widgets.env_table import theme_style

MAX_NODES = 8
MAX_SLOTS = 8


def _node_box(plan: LaunchPlan, node: int, primary: Style | str) -> Panel:
    info = plan.nodes[node]
    ranks = (
        [r for r in plan.ranks if r.node == node]
        if plan.tasks
        else plan.ranks[node * info.workers : (node + 1) * info.workers]
    )
    body = Text()
    if plan.tasks:
        body.append(f"{info.role} {ranks[0].task_index}\n", style="bold")
        body.append(f"1 task, {counted(plan.spec.gpus_per_node, 'GPU')}")
    else:
        if plan.launcher_spawns:
            body.append(f"{plan.launcher} → {counted(info.workers, 'worker')}\n", style="bold")
        else:
            body.append(f"{counted(info.processes, 'process')}\n", style="bold")
        slot = "GPU" if plan.target.kind == "azureml" else "proc"  # here: a GPU only if one is free
        for r in ranks[:MAX_SLOTS]:
            body.append(f"{slot}{r.local_rank}:r{r.rank} ")
        if len(ranks) > MAX_SLOTS:
            body.append(f"… r{ranks[-1].rank}")
    title = f"node {node}" + (" · master" if node == 0 and not plan.tasks else "")  # tasks: none
    return Panel(
        body,
        title=title,
        title_align="left",
        width=30,
        border_style=primary if node == 0 else "dim",
    )


def topology(
    plan: LaunchPlan, primary: Style | str = "cyan", caption: str | None = None
) -> RenderableType:
    """The nodes of `plan` as boxes; large jobs show the first nodes and the last one.
    `caption`: what follows the node count, in the framework's words (default: the world size
    and the master's address)."""
    count = len(plan.nodes)
    shown = list(range(count)) if count <= MAX_NODES else [*range(MAX_NODES - 1), count - 1]
    boxes = [_node_box(plan, n, primary) for n in shown]
    nodes = counted(count, "node")
    if caption is not None:
        head = Text(f"{nodes}, {caption}", style="bold")
    else:
        head = Text(
            f"{nodes} · WORLD_SIZE {plan.world_size} · "
            f"master: node 0 at {plan.target.master_addr}:{plan.target.master_port}",
            style="bold",
        )
    parts: list[RenderableType] = [head, Columns(boxes, padding=(0, 1))]
    if count > MAX_NODES:
        parts.append(
            Text(
                f"… {count - MAX_NODES} more nodes not drawn (node {count - 1} shown last)",
                style="dim",
            )
        )
    return Group(*parts)


class Topology(Static):
    """The cluster as the plan lays it out."""

    def show(self, plan: LaunchPlan, caption: str | None = None) -> None:
        self.update(topology(plan, theme_style(self.app.current_theme.primary), caption))
