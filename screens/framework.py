"""Step 1: which framework the training script uses."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Label, RadioButton, RadioSet

from screens.base import WizardStep
from tui.core.spec import FRAMEWORKS, JobSpec, switch_framework

ONE_LINERS = {
    "pytorch": "DistributedDataParallel; most jobs",
    "lightning": "Trainer(strategy='ddp')",
    "huggingface": "Trainer or an Accelerate loop",
    "deepspeed": "ZeRO sharding for large models",
    "tensorflow": "tf.distribute reading TF_CONFIG",
    "horovod": "hvd.init() over MPI",
}

WHY = {
    "pytorch": "PyTorch DDP keeps a full copy of the model on every GPU. Each process trains on "
    "its own slice of the data and the gradients are averaged with an all-reduce after every "
    "step, so {world} GPUs see {world}× the data per step.",
    "lightning": "Lightning wraps DDP: the Trainer finds the processes Azure ML started through "
    "RANK, LOCAL_RANK and WORLD_SIZE, and only needs `num_nodes` and `devices` to match.",
    "huggingface": "The Trainer (and Accelerate) read the rank variables from the environment, "
    "so a single-GPU script becomes distributed without code changes.",
    "deepspeed": "DeepSpeed adds ZeRO: optimizer states, gradients and (stage 3) parameters are "
    "sharded across GPUs, so larger models fit. It needs a fast interconnect between nodes.",
    "tensorflow": "TensorFlow reads the cluster from TF_CONFIG, which Azure ML writes on every "
    "node. One task runs per node and drives all of that node's GPUs.",
    "horovod": "Horovod averages gradients with ring all-reduce over MPI. Azure ML starts "
    "mpirun; each rank learns its place from OMPI_COMM_WORLD_RANK.",
}


class FrameworkStep(WizardStep):
    """Pick the framework; the why panel recommends data parallelism for most jobs."""

    STEP = 0

    def form(self) -> ComposeResult:
        yield Label("What does your training script use?", classes="question")
        with RadioSet(id="framework", classes="field"):
            for key, title in FRAMEWORKS.items():
                yield RadioButton(
                    f"{title}  [dim]· {ONE_LINERS[key]}[/]",
                    id=f"fw-{key}",
                    value=key == self.app.spec.framework,
                )

    def sync(self) -> None:
        super().sync()
        button = self.query_one(f"#fw-{self.app.spec.framework}", RadioButton)
        if not button.value:
            button.value = True

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        key = (event.pressed.id or "").removeprefix("fw-")
        if key and key != self.app.spec.framework:
            self.replace(switch_framework(self.app.spec, key))

    def why(self, spec: JobSpec) -> str:
        world = spec.nodes * spec.gpus_per_node
        return (
            "**Most jobs want data parallelism**: the same model on every GPU, each GPU on "
            "different data. Every framework here does that; pick the one your script already "
            "uses.\n\n"
            f"**{FRAMEWORKS[spec.framework]}.** "
            + WHY[spec.framework].format(world=world)
            + "\n\nNext you choose who starts the processes: Azure ML, or your launcher."
        )
