"""Step 2: who starts the processes — Azure ML (per-process) or your launcher (per-node)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, RadioButton, RadioSet, Static

from screens.base import WizardStep
from tui.core.plan_types import Origin
from tui.core.spec import JobSpec, launch_mode_problem
from tui.core.words import counted, plural
from tui.frameworks import registry
from tui.planning.command import launcher_of
from tui.planning.plan import plan

MODES = {
    "per_process": "Per-process: Azure ML starts one process per GPU",
    "per_node": "Per-node: your launcher starts the processes on each node",
    "single": "Not distributed: Azure ML starts one process per node",
}


def diagram(spec: JobSpec) -> Text:
    """What runs on each node, drawn with the user's numbers (first two nodes; where processes
    are tasks, also the first task of another role, which would otherwise hide among "more
    nodes")."""
    p = plan(spec)
    out = Text()
    drawn = list(p.nodes[:2])
    if p.tasks:
        roles = {n.role for n in drawn}
        drawn += [n for n in p.nodes[2:] if n.role not in roles][:1]
    for node in drawn:
        out.append(f"node {node.node}  ", style="bold")
        first = node.node * node.workers
        ranks = list(range(first, first + node.workers))
        shown = ", ".join(str(r) for r in ranks[:4]) + (f" … {ranks[-1]}" if len(ranks) > 4 else "")
        if spec.launch == "single":
            out.append("1 process, your command as written (no rank variables)\n")
        elif p.tasks:
            out.append(f"python ({node.role} {p.ranks[node.node].task_index}, all GPUs)\n")
        elif p.launcher_spawns:
            out.append(f"{p.launcher} ─▶ {counted(node.workers, 'worker')} (RANK {shown})\n")
        else:
            out.append(f"{node.processes} × python (RANK {shown})\n")
    if len(p.nodes) > len(drawn):
        more = len(p.nodes) - len(drawn)
        out.append(f"… {more} more {plural(more, 'node')}\n", style="dim")
    return out


def _dashed(field: str) -> str:
    return field.replace("_", "-")


class LaunchStep(WizardStep):
    """Choose the launch mode; modes that do not fit the framework say why instead of hiding."""

    STEP = 1

    def form(self) -> ComposeResult:
        yield Label("Who starts the training processes?", classes="question")
        with RadioSet(id="launch", classes="field"):
            for key, title in MODES.items():
                yield RadioButton(title, id=f"mode-{key}")
        yield Static("", id="mode-problem", classes="hint")
        for framework in registry.frameworks():  # each framework's own choices
            for option in framework.launch_options:
                with Vertical(id=f"options-{_dashed(option.field)}", classes="framework-options"):
                    yield Label(option.label)
                    with RadioSet(id=_dashed(option.field)):
                        for label, value in option.choices:
                            yield RadioButton(label, id=f"{_dashed(option.field)}--{value}")
        yield Label("What Azure ML starts", classes="question")
        yield Static("", id="diagram")

    def sync(self) -> None:
        super().sync()
        spec = self.app.spec
        for key in MODES:
            button = self.query_one(f"#mode-{key}", RadioButton)
            problem = launch_mode_problem(spec.framework, key)
            button.disabled = problem is not None
            button.tooltip = problem
            if key == spec.launch and not button.value:
                button.value = True
        other = "per_node" if spec.launch != "per_node" else "per_process"
        problem = launch_mode_problem(spec.framework, other)
        self.query_one("#mode-problem", Static).update(
            f"{MODES[other].split(':')[0]} does not fit: {problem}." if problem else ""
        )
        own = registry.get(spec.framework).launch_options
        for framework in registry.frameworks():
            for option in framework.launch_options:
                wid = _dashed(option.field)
                self.query_one(f"#options-{wid}").display = option in own and option.shown(spec)
                self.query_one(f"#{wid}--{getattr(spec, option.field)}", RadioButton).value = True
        self.query_one("#diagram", Static).update(diagram(spec))

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        pressed = event.pressed.id or ""
        if pressed.startswith("mode-"):
            field, value = "launch", pressed.removeprefix("mode-")
        elif "--" in pressed:  # a framework's own choice: field--value
            wid, _, value = pressed.partition("--")
            field = wid.replace("-", "_")
        else:
            return
        if getattr(self.app.spec, field) != value and self.apply(**{field: value}):
            self.sync()

    def why(self, spec: JobSpec) -> str:
        framework = registry.get(spec.framework)
        text = framework.why("launch", spec) or self._modes_why(spec)
        if spec.launch == "single":
            text = single_why(spec) + "\n\n" + text
        return text

    @staticmethod
    def _modes_why(spec: JobSpec) -> str:
        """Per-process and per-node for a framework whose processes join one process group."""
        n, g = spec.nodes, spec.gpus_per_node
        framework = registry.get(spec.framework)
        per_process = spec.with_changes(launch="per_process")
        mpi = framework.uses_mpi(per_process)
        each = f"each of the {n} nodes" if n > 1 else "its one node"
        if mpi:
            text = (
                f"**Per-process**: Azure ML starts mpirun, which starts {counted(g, 'process')} "
                f"on {each} (`process_count_per_instance = {g}`); Open MPI gives each its "
                f"OMPI_COMM_WORLD_RANK and LOCAL_RANK. Your script calls {framework.init_call}."
                "\n\n"
            )
        else:
            text = (
                f"**Per-process**: Azure ML starts {counted(g, 'process')} on {each} "
                f"(`process_count_per_instance = {g}`) and gives each its own RANK and "
                f"LOCAL_RANK. Your script just calls {framework.init_call}.\n\n"
            )
        problem = launch_mode_problem(spec.framework, "per_node")
        launcher = None if problem else launcher_of(spec.with_changes(launch="per_node"))
        own = framework.why("launch.per_node", spec)
        if problem:
            text += f"**Per-node** does not fit: {problem}.\n\n"
        elif own:
            text += own
        elif launcher is not None:
            text += (
                f"**Per-node**: Azure ML starts one process per node "
                f"(`process_count_per_instance = 1`): `{launcher.name}`, which starts "
                f"{counted(g, 'worker')}. The command passes it $NODE_RANK, $MASTER_ADDR and "
                "$MASTER_PORT, which "
                f"Azure ML sets on each node, and the node count ({n}), which Azure ML does not "
                "set. Use it for launcher features (restarts, failure summaries) or a script "
                "already written for it.\n\n"
            )
        either = "WORLD_SIZE" if problem else "**Either way** WORLD_SIZE"
        return text + f"{either} = {n} × {g} = {counted(n * g, 'training process')}."


def single_why(spec: JobSpec) -> str:
    """What a job without a distribution runs now, and what choosing a mode would change."""
    kept = (spec.as_written.get("distribution") or {}).get("type")
    where = f"each of the {spec.nodes} nodes" if spec.nodes > 1 else "its node"
    now = (
        f"your file's `distribution: {kept}` is kept as written; dtrain-tui does not model it"
        if kept
        else "your job has no `distribution:`"
    )
    modes = [m for m in ("per_process", "per_node") if not launch_mode_problem(spec.framework, m)]
    p = plan(spec.with_changes(launch=modes[0]))
    shown = ", ".join(f"{k}: {v}" for k, v in p.distribution.as_yaml().items())
    names = [
        v.name for v in p.ranks[0].env if v.origin.kind == "platform" or v.origin is Origin.OPENMPI
    ]
    return (
        f"**Not distributed** ({now}): Azure ML starts one process on {where} and sets no "
        "rank variables; your command runs as written.\n\n"
        f"**To make it distributed**, choose "
        + " or ".join(MODES[m].split(":")[0].lower() for m in modes)
        + f": the job gains `distribution: {{{shown}}}`"
        + (f" in place of `{kept}`" if kept else "")
        + f" and every process gets {', '.join(names)}. Your script must use them "
        f"({registry.get(spec.framework).init_call}) or each process trains alone. "
        "The Resources step sets the processes per node; the command stays as you wrote it."
    )
