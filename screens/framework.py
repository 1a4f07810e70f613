"""Step 1: which framework the training script uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Label, RadioButton, RadioSet

from screens.base import WizardStep
from tui.core.framework_list import LISTED
from tui.core.words import counted, plural

if TYPE_CHECKING:
    from tui.core.spec import JobSpec
    from tui.planning.presets import Preset

# The first screen is drawn from plain data (`LISTED`): the model (`tui.core.spec`, pydantic) and
# the framework modules (`registry`) load just after the first frame, so they are imported where
# they are used, all of which runs after it.

TARGETS = {
    "azureml": "Azure ML: a cluster in your workspace",
    "local": "This machine: a 2 × 2 rehearsal, no account",
}


class FrameworkStep(WizardStep):
    """Pick the framework; the why panel recommends data parallelism for most jobs."""

    STEP = 0
    BINDINGS: ClassVar = [
        *WizardStep.BINDINGS,
        Binding("e", "examples", "Examples"),
        Binding("o", "app.jobs", "Jobs"),
    ]

    def form(self) -> ComposeResult:
        yield Button("Start from an example (e)", id="examples", compact=True)
        yield Label("What does your training script use?", classes="question")
        with RadioSet(id="framework", classes="field"):
            for name, title, tagline in LISTED:
                yield RadioButton(
                    f"{title}  [dim]· {tagline}[/]",
                    id=f"fw-{name}",
                    value=name == self.app.framework,
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
            from tui.core.spec import switch_framework
            from tui.frameworks import registry
            from tui.planning.presets import follow_example

            before = self.app.spec
            # an example the app chose is not the user's answer: it follows the framework
            spec = follow_example(before, switch_framework(before, key))
            if self.app.review_target == "local":
                from tui.planning.presets import for_this_machine

                # the new framework's sample, if it has one; the user's nodes × GPUs stay
                spec = for_this_machine(spec, counts=False)
            self.replace(spec)
            notes = switch_notes(before, spec)
            if notes:  # what could not be kept, and why
                self.notify("\n".join(notes), title=f"Switched to {registry.get(key).title}")

    def choose_target(self, target: str) -> None:
        """Where the review plans for and Submit offers first; "this machine" makes the job one
        that runs here (2 × 2, no VM size, the sample script when yours is not here)."""
        if target == self.app.review_target:
            return
        self.app.review_target = target
        if target == "local":
            from tui.planning.presets import for_this_machine, samples_dir

            before = self.app.spec
            # nodes × GPUs the user typed stay; a cluster's shape becomes a 2 × 2 rehearsal
            spec = for_this_machine(before, counts=not self.app.counts_answered)
            self.replace(spec)
            was, now = (before.nodes, before.gpus_per_node), (spec.nodes, spec.gpus_per_node)
            if was != now:
                self.notify(
                    f"Nodes × GPUs per node: {now[0]} × {now[1]} here (was {was[0]} × {was[1]}); "
                    "the Resources step changes it"
                )
            if (spec.code, spec.script) != (before.code, before.script):
                from tui.frameworks import registry

                title = registry.get(spec.framework).title
                self.notify(
                    f"{before.script} is not here, and {before.code} holds no Python files: "
                    f"{title}'s example {spec.script} runs instead"
                    if spec.code == str(samples_dir())
                    else f"Script: {spec.script}, the training script found in {spec.code}"
                )
        else:
            WizardStep.sync(self)  # the Why's words on this machine no longer apply

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "examples":
            event.stop()
            self.action_examples()
            return
        super().on_button_pressed(event)

    def action_examples(self) -> None:
        from screens.examples import ExamplesScreen
        from tui.planning.presets import for_this_machine

        def chosen(choice: tuple[Preset, bool] | None) -> None:
            if choice is None:
                return
            preset, here = choice
            self.app.counts_answered = False  # the example's counts, not the user's
            self.app.review_target = "local" if here else "azureml"
            self.replace(for_this_machine(preset.spec) if here else preset.spec)
            self.sync()
            spec = self.app.spec
            shape = f"{spec.nodes} × {spec.gpus_per_node} here (on the CPU if there is no GPU)"
            what = f"runs as {shape}; its title is the Azure ML job" if here else preset.title
            self.notify(f"{preset.name}: {what}. Next (ctrl+n) walks through each step.")

        self.app.push_screen(ExamplesScreen(), chosen)

    def why(self, spec: JobSpec) -> str:
        from tui.frameworks import registry

        framework = registry.get(spec.framework)
        return (
            "**Most jobs want data parallelism**: the same model on every GPU, each GPU on "
            "different data. Every framework here does that; pick the one your script already "
            "uses.\n\n"
            f"**{framework.title}.** "
            + framework.why("framework", spec)
            + "\n\n**This machine** runs the same plan with the framework's real launchers "
            f"and processes on loopback: {_here(spec, self.app.review_target)}, on the CPU if "
            "there is no GPU. It is how you see every rank's log before paying for a cluster.\n\n"
            "Next you choose who starts the processes: Azure ML, or your launcher."
        )


def _here(spec: JobSpec, target: str) -> str:
    """What a rehearsal here runs: the job's own counts once it is planned for this machine."""
    if target != "local":
        return "2 simulated nodes × 2 processes unless you change them"
    nodes, per = spec.nodes, spec.gpus_per_node
    return f"{nodes} simulated {plural(nodes, 'node')} × {counted(per, 'process')}"


def switch_notes(old: JobSpec, new: JobSpec) -> list[str]:
    """What a framework switch (`switch_framework`, and on this machine `for_this_machine`)
    did not keep of the user's answers, each with why; [] when it kept them all."""
    if old.framework == new.framework:
        return []
    from tui.core.spec import launch_mode_problem
    from tui.frameworks import registry

    was, now = registry.get(old.framework), registry.get(new.framework)
    notes = []
    if new.launch != old.launch:
        why = launch_mode_problem(new.framework, old.launch) or f"{now.title} starts that way"
        notes.append(f"Launch is now {new.launch.replace('_', '-')}: {why}")
    labels = was.field_labels
    for field, default in was.options.items():
        if getattr(old, field) != default and getattr(new, field) == default:
            label = labels.get(field, field.replace("_", " "))
            notes.append(f"{label} cleared: only {was.title} has it")
    if new.environment != old.environment and new.environment is None:
        notes.append(f"Environment: {now.title}'s curated default replaces {was.title}'s image")
    for field in ("nodes", "gpus_per_node"):
        if getattr(new, field) != getattr(old, field):
            label = "GPUs per node" if field == "gpus_per_node" else "Nodes"
            notes.append(f"{label} is now {getattr(new, field)} (was {getattr(old, field)})")
    if (new.code, new.script) != (old.code, old.script) and new.script != old.script:
        from tui.planning.presets import runs_example

        why = (
            f"{was.title}'s example goes with {was.title}"
            if runs_example(old)
            else f"{old.script} is not on this machine"
        )
        notes.append(f"Script is now {now.title}'s example {new.script}: {why}")
    return notes
