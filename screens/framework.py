"""Step 1: which framework the training script uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Label, RadioButton, RadioSet

from screens.base import WizardStep
from tui.core.spec import FRAMEWORKS, JobSpec, switch_framework

if TYPE_CHECKING:
    from tui.core.presets import Preset

TARGETS = {
    "azureml": "Azure ML: a cluster in your workspace",
    "local": "This machine: a 2 × 2 rehearsal, no account",
}

ONE_LINERS = {
    "pytorch": "DistributedDataParallel; most jobs",
    "lightning": "Trainer(strategy='ddp')",
    "huggingface": "Trainer or Accelerate",
    "deepspeed": "ZeRO sharding for large models",
    "tensorflow": "TF_CONFIG",
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
    BINDINGS: ClassVar = [
        *WizardStep.BINDINGS,
        Binding("e", "examples", "Examples"),
    ]

    def form(self) -> ComposeResult:
        yield Button("Start from an example (e)", id="examples", compact=True)
        yield Label("What does your training script use?", classes="question")
        with RadioSet(id="framework", classes="field"):
            for key, title in FRAMEWORKS.items():
                yield RadioButton(
                    f"{title}  [dim]· {ONE_LINERS[key]}[/]",
                    id=f"fw-{key}",
                    value=key == self.app.spec.framework,
                )
        yield Label("Where will it run first?", classes="question")
        with RadioSet(id="target"):
            for key, title in TARGETS.items():
                yield RadioButton(title, id=f"target-{key}", value=key == self.app.review_target)

    def sync(self) -> None:
        super().sync()
        for wid in (f"#fw-{self.app.spec.framework}", f"#target-{self.app.review_target}"):
            button = self.query_one(wid, RadioButton)
            if not button.value:
                button.value = True

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        pressed = event.pressed.id or ""
        if pressed.startswith("target-"):
            self.choose_target(pressed.removeprefix("target-"))
            return
        key = pressed.removeprefix("fw-")
        if key and key != self.app.spec.framework:
            spec = switch_framework(self.app.spec, key)
            if self.app.review_target == "local":
                from tui.core.presets import for_this_machine

                spec = for_this_machine(spec)  # the new framework's sample, if it has one
            self.replace(spec)

    def choose_target(self, target: str) -> None:
        """Where the review plans for and Submit offers first; "this machine" makes the job one
        that runs here (2 × 2, no VM size, the sample script when yours is not here)."""
        if target == self.app.review_target:
            return
        self.app.review_target = target
        if target == "local":
            from tui.core.presets import for_this_machine

            self.replace(for_this_machine(self.app.spec))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "examples":
            event.stop()
            self.action_examples()
            return
        super().on_button_pressed(event)

    def action_examples(self) -> None:
        from screens.examples import ExamplesScreen
        from tui.core.presets import for_this_machine

        def chosen(choice: tuple[Preset, bool] | None) -> None:
            if choice is None:
                return
            preset, here = choice
            self.app.review_target = "local" if here else "azureml"
            self.replace(for_this_machine(preset.spec) if here else preset.spec)
            self.sync()
            self.notify(f"{preset.name}: {preset.title}. Next (ctrl+n) walks through each step.")

        self.app.push_screen(ExamplesScreen(), chosen)

    def why(self, spec: JobSpec) -> str:
        world = spec.nodes * spec.gpus_per_node
        return (
            "**Most jobs want data parallelism**: the same model on every GPU, each GPU on "
            "different data. Every framework here does that; pick the one your script already "
            "uses.\n\n"
            f"**{FRAMEWORKS[spec.framework]}.** "
            + WHY[spec.framework].format(world=world)
            + "\n\n**This machine** runs the same plan with the real launchers (torchrun, "
            "mpirun) on loopback: 2 simulated nodes × 2 processes, CPUs with gloo if there is "
            "no GPU. It is how you see every rank's log before paying for a cluster.\n\n"
            "Next you choose who starts the processes: Azure ML, or your launcher."
        )
