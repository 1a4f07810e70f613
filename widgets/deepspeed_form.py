"""The DeepSpeed section of Code & env: batch sizes, ZeRO stage, offload and precision.

The config itself is built by `tui.core.deepspeed` from the plan; this form only edits the
choices and shows the batch arithmetic in the user's numbers, which follows nodes and GPUs.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, Select, Static

from tui.core.plan_types import LaunchPlan
from tui.core.spec import JobSpec
from tui.frameworks import deepspeed_config as deepspeed

STAGES = [
    ("2: shard optimizer states + gradients (default)", 2),
    ("0: no sharding", 0),
    ("1: shard optimizer states", 1),
    ("3: shard everything, parameters too", 3),
]
OFFLOAD = [("none", "none"), ("to CPU memory", "cpu"), ("to local NVMe", "nvme")]
PRECISION = [
    ("auto: what the GPU does best", "auto"),
    ("bf16", "bf16"),
    ("fp16", "fp16"),
    ("fp32", "fp32"),
]

# widget id -> spec field (the ids are the field names with dashes, so errors find their field)
FIELDS = {
    "ds-micro-batch": "ds_micro_batch",
    "ds-grad-accum": "ds_grad_accum",
    "zero-stage": "zero_stage",
    "ds-offload": "ds_offload",
    "ds-precision": "ds_precision",
}


def _row(label: str, widget: Any) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field-row")


class DeepSpeedForm(Vertical):
    """Edits the generated ds_config.json's choices; hidden when the job brings its own file."""

    DEFAULT_CSS = """
    DeepSpeedForm { height: auto; }
    DeepSpeedForm #ds-arithmetic { color: $text-muted; padding-left: 2; }
    """

    class Changed(Message):
        """The user changed one DeepSpeed choice (`field` is the JobSpec field)."""

        def __init__(self, field: str, value: Any) -> None:
            super().__init__()
            self.field = field
            self.value = value

    def __init__(self, spec: JobSpec, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._spec = spec

    def compose(self) -> ComposeResult:
        spec = self._spec
        yield Label("DeepSpeed config (ds_config.json)", classes="question")
        yield _row(
            "Micro batch/GPU",
            Input(str(spec.ds_micro_batch), id="ds-micro-batch", classes="field", compact=True),
        )
        yield _row(
            "Grad. accumulation",
            Input(str(spec.ds_grad_accum), id="ds-grad-accum", classes="field", compact=True),
        )
        stage = spec.zero_stage if spec.zero_stage is not None else deepspeed.DEFAULT_STAGE
        for label, wid, options, value in (
            ("ZeRO stage", "zero-stage", STAGES, stage),
            ("Offload", "ds-offload", OFFLOAD, spec.ds_offload),
            ("Precision", "ds-precision", PRECISION, spec.ds_precision),
        ):
            select = Select(
                options, value=value, id=wid, allow_blank=False, classes="field", compact=True
            )
            yield _row(label, select)
        yield Static("", id="ds-arithmetic")

    def show(self, p: LaunchPlan) -> None:
        """Show the config's arithmetic and precision for plan `p`."""
        if p.config_file is None:
            text = "Your config file is used as it is (see Review › DeepSpeed)."
        else:
            text = "\n".join(p.config_file.explanations)
        self.query_one("#ds-arithmetic", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        field = FIELDS.get(event.input.id or "")
        if field is None:
            return
        event.stop()
        try:
            value: Any = int(event.value.strip())
        except ValueError:
            value = event.value  # the spec's validator names the field and the fix
        self.post_message(self.Changed(field, value))

    def on_select_changed(self, event: Select.Changed) -> None:
        field = FIELDS.get(event.select.id or "")
        if field is None or event.value is Select.BLANK:
            return
        event.stop()
        self.post_message(self.Changed(field, event.value))
