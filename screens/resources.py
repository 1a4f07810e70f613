"""Step 3: how many nodes, how many GPUs each, and which VM size."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Checkbox, Input, Label, Static

from screens.base import WizardStep, labelled
from tui.core.catalog import find_sku
from tui.core.spec import JobSpec
from tui.core.words import counted
from tui.frameworks import registry
from tui.planning.plan import plan
from widgets.sku_table import SkuTable

LABELS = {
    "nodes": "Nodes",
    "gpus-per-node": "GPUs per node",
    "parameter-servers": "Parameter servers",
}
FIELDS = {
    "nodes": "nodes",
    "gpus-per-node": "gpus_per_node",
    "parameter-servers": "parameter_servers",
}


class ResourcesStep(WizardStep):
    """Nodes × GPUs and the SKU; warnings (no InfiniBand, no SR-IOV) show beside the choice."""

    STEP = 2
    SCROLL_FORM = False

    def form(self) -> ComposeResult:
        spec = self.app.spec
        with Horizontal(id="counts"):
            for wid, field in FIELDS.items():
                box = Input(
                    str(getattr(spec, field)), id=wid, type="integer", classes="field", compact=True
                )
                yield labelled(LABELS[wid], box)
        yield Static("", id="world")
        with Horizontal(id="sku-head"):
            yield Label("VM size", classes="question")
            yield Checkbox("InfiniBand only", id="ib-only", compact=True)
        yield SkuTable(spec.sku, id="sku", classes="field")
        yield Static("", id="warnings", classes="warnings")

    def sync(self) -> None:
        super().sync()
        spec = self.app.spec
        tasks = "parameter_servers" in registry.get(spec.framework).options
        self.query_one("#parameter-servers").parent.display = tasks
        # Where processes are tasks, the nodes field is the workers and each ps task adds a node.
        self.query_one("#nodes").parent.query_one(Label).update("Workers" if tasks else "Nodes")
        for wid, field in FIELDS.items():
            box = self.query_one(f"#{wid}", Input)
            if box.value != str(getattr(spec, field)) and "-invalid" not in box.classes:
                box.value = str(getattr(spec, field))
        self._show_plan(spec)

    def _show_plan(self, spec: JobSpec) -> None:
        p = plan(spec)
        if p.tasks:
            world = (
                f"{counted(spec.nodes, 'worker')} + "
                f"{spec.parameter_servers} ps = {p.instance_count} tasks, one per node: "
                f"instance_count = {p.instance_count}"
            )
        else:
            world = (
                f"WORLD_SIZE = {counted(spec.nodes, 'node')} × {p.workers_per_node} per node = "
                f"{counted(p.world_size, 'process')}"
            )
        self.query_one("#world", Static).update(world)
        resource_warnings = [w for w in p.warnings if w.startswith(("sku:", "launch:"))]
        self.query_one("#warnings", Static).update("\n".join(f"⚠ {w}" for w in resource_warnings))

    def show_error(self, message: str | None, field: str | None = None) -> None:
        super().show_error(message, field)
        if message is not None:  # the counts would be those of the last valid answer
            self.query_one("#world", Static).update(
                f"{LABELS.get(_wid(field), 'A field')} is not valid yet: no totals"
            )

    def on_input_changed(self, event: Input.Changed) -> None:
        field = FIELDS.get(event.input.id or "")
        if field is None:
            return
        event.stop()
        if not event.value.strip():
            self.show_error(f"{field}: enter a number", field)  # labelled by show_error
            return
        typed = event.value.strip() != str(getattr(self.app.spec, field))  # not a sync
        if self.apply(**{field: event.value}):
            if typed and field in ("nodes", "gpus_per_node"):
                self.app.counts_answered = True
            self._show_plan(self.app.spec)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.query_one(SkuTable).ib_only = event.value

    def on_sku_table_sku_chosen(self, event: SkuTable.SkuChosen) -> None:
        name = event.sku.name if event.sku else None
        if name == self.app.spec.sku:
            return
        changes: dict = {"sku": name}
        if event.sku and self.app.spec.gpus_per_node > event.sku.gpus:
            changes["gpus_per_node"] = event.sku.gpus  # follow the size down, never up
        if self.apply(**changes):
            self.query_one("#gpus-per-node", Input).value = str(self.app.spec.gpus_per_node)
            self._show_plan(self.app.spec)

    def why(self, spec: JobSpec) -> str:
        sku = find_sku(spec.sku)
        n, g = spec.nodes, spec.gpus_per_node
        text = registry.get(spec.framework).why("resources", spec)
        if not text:
            text = (
                f"**{n} node{'s' if n != 1 else ''} × {g} GPU{'s' if g != 1 else ''}.** "
                "Data parallelism scales the batch: each step processes "
                f"{n * g}× one GPU's batch. Fill a node's GPUs before adding nodes — GPUs in "
                "one node talk over NVLink, nodes over the network.\n\n"
            )
        if sku:
            text += (
                f"**{sku.name}** ({sku.family}): {sku.gpus}× {sku.gpu_model}, interconnect "
                f"{sku.interconnect}. {sku.notes}\n\n"
            )
        else:
            text += (
                "**No size chosen**: GPUs per node is taken as you state it and "
                "InfiniBand cannot be checked.\n\n"
            )
        return text + (
            registry.get(spec.framework).why("resources.network", spec)
            or "**InfiniBand** matters as soon as there are 2 nodes: every step all-reduces the "
            "gradients across nodes, and NCCL over InfiniBand (with SR-IOV) is many times "
            "faster than Ethernet. Sizes with an `r` in the name have it."
        )


def _wid(field: str | None) -> str:
    return (field or "").split(".")[0].replace("_", "-")
