"""Step 2: who starts the processes — Azure ML (per-process) or your launcher (per-node)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, RadioButton, RadioSet, Static

from screens.base import WizardStep
from tui.core.plan import launcher_for, plan
from tui.core.plan_types import Origin
from tui.core.spec import JobSpec, launch_mode_problem

MODES = {
    "per_process": "Per-process: Azure ML starts one process per GPU",
    "per_node": "Per-node: your launcher starts the processes on each node",
    "single": "Not distributed: Azure ML starts one process per node",
}

INIT = {"horovod": "`hvd.init()`", "tensorflow": "`MultiWorkerMirroredStrategy()`"}
"""How a framework's script picks up the variables, where it is not `init_process_group()`."""


def diagram(spec: JobSpec) -> Text:
    """What runs on each node, drawn with the user's numbers (first two nodes; for TensorFlow
    also its first parameter server, which would otherwise hide among "more nodes")."""
    p = plan(spec)
    out = Text()
    drawn = list(p.nodes[:2])
    if spec.framework == "tensorflow":
        drawn += [n for n in p.nodes[2:] if n.role == "ps"][:1]
    for node in drawn:
        out.append(f"node {node.node}  ", style="bold")
        first = node.node * node.workers
        ranks = list(range(first, first + node.workers))
        shown = ", ".join(str(r) for r in ranks[:4]) + (f" … {ranks[-1]}" if len(ranks) > 4 else "")
        if spec.launch == "single":
            out.append("1 process, your command as written (no rank variables)\n")
        elif spec.framework == "tensorflow":
            out.append(f"python ({node.role} {p.ranks[node.node].task_index}, all GPUs)\n")
        elif p.launcher in ("torchrun", "accelerate"):
            out.append(f"{p.launcher} ─▶ {node.workers} workers (RANK {shown})\n")
        else:
            out.append(f"{node.processes} × python (RANK {shown})\n")
    if len(p.nodes) > len(drawn):
        more = len(p.nodes) - len(drawn)
        out.append(f"… {more} more node{'s' if more > 1 else ''}\n", style="dim")
    return out


class LaunchStep(WizardStep):
    """Choose the launch mode; modes that do not fit the framework say why instead of hiding."""

    STEP = 1

    def form(self) -> ComposeResult:
        yield Label("Who starts the training processes?", classes="question")
        with RadioSet(id="launch", classes="field"):
            for key, title in MODES.items():
                yield RadioButton(title, id=f"mode-{key}")
        yield Static("", id="mode-problem", classes="hint")
        with Vertical(id="hf-options"):
            yield Label("Launcher on each node")
            with RadioSet(id="hf-launcher"):
                yield RadioButton("accelerate launch", id="hf-accelerate")
                yield RadioButton("torchrun", id="hf-torchrun")
        with Vertical(id="ds-options"):
            yield Label("DeepSpeed runs under Azure ML's")
            with RadioSet(id="deepspeed-via"):
                yield RadioButton("pytorch distribution (RANK, WORLD_SIZE)", id="via-pytorch")
                yield RadioButton("mpi distribution (mpirun, OMPI_COMM_WORLD_*)", id="via-mpi")
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
        self.query_one("#hf-options").display = (
            spec.framework == "huggingface" and spec.launch == "per_node"
        )
        self.query_one(f"#hf-{spec.hf_launcher}", RadioButton).value = True
        self.query_one("#ds-options").display = spec.framework == "deepspeed"
        self.query_one(f"#via-{spec.deepspeed_via}", RadioButton).value = True
        self.query_one("#diagram", Static).update(diagram(spec))

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        pressed = event.pressed.id or ""
        for prefix, field in (
            ("mode-", "launch"),
            ("hf-", "hf_launcher"),
            ("via-", "deepspeed_via"),
        ):
            if pressed.startswith(prefix):
                value = pressed.removeprefix(prefix)
                if getattr(self.app.spec, field) != value and self.apply(**{field: value}):
                    self.sync()

    def why(self, spec: JobSpec) -> str:
        n, g = spec.nodes, spec.gpus_per_node
        launcher = (
            launcher_for(spec.with_changes(launch="per_node"))
            if launch_mode_problem(spec.framework, "per_node") is None
            else None
        )
        text = (
            f"**Per-process**: Azure ML starts {g} processes on each of the {n} nodes "
            f"(`process_count_per_instance = {g}`) and gives each its own RANK and LOCAL_RANK. "
            "Your script just calls `init_process_group()`.\n\n"
        )
        if launcher == "lightning":
            text += (
                "**Per-node**: Azure ML starts one process per node and Lightning is expected to "
                "start the rest — but it sees LOCAL_RANK=0 and trains on **one GPU per node**. "
                "Prefer per-process for Lightning.\n\n"
            )
        elif launcher:
            text += (
                f"**Per-node**: Azure ML starts one process per node "
                f"(`process_count_per_instance = 1`): `{launcher}`, which starts {g} workers. "
                "The command passes it $NODE_RANK, $MASTER_ADDR and $MASTER_PORT, which Azure "
                f"ML sets on each node, and the node count ({n}), which Azure ML does not set. "
                "Use it for launcher features (restarts, failure summaries) or a script "
                "already written for it.\n\n"
            )
        else:
            text += (
                "**Per-node** (one TensorFlow task per node): TF_CONFIG names nodes, and each "
                "task uses all the GPUs of its node.\n\n"
            )
        text += f"**Either way** WORLD_SIZE = {n} × {g} = {n * g} training processes."
        if spec.framework == "tensorflow":
            text = (
                "TensorFlow runs **one task per node**; Azure ML writes TF_CONFIG on each "
                "node. That is why per-process does not apply."
            )
        if spec.launch == "single":
            text = single_why(spec) + "\n\n" + text
        return text


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
    names = [v.name for v in p.ranks[0].env if v.origin in (Origin.AZUREML, Origin.OPENMPI)]
    return (
        f"**Not distributed** ({now}): Azure ML starts one process on {where} and sets no "
        "rank variables; your command runs as written.\n\n"
        f"**To make it distributed**, choose "
        + " or ".join(MODES[m].split(":")[0].lower() for m in modes)
        + f": the job gains `distribution: {{{shown}}}`"
        + (f" in place of `{kept}`" if kept else "")
        + f" and every process gets {', '.join(names)}. Your script must use them "
        f"({INIT.get(spec.framework, '`init_process_group()`')}) or each process trains alone. "
        "The Resources step sets the processes per node; the command stays as you wrote it."
    )
