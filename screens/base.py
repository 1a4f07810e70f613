"""`WizardStep`: what every step shares — header, form, why panel, Back/Next bar, Footer.

A step turns its widgets into a new `JobSpec` with `apply()`; the model's rules decide what is
valid, and their message is shown under the form. Next is disabled (its key dimmed) while the
step is invalid.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Label, Static

from widgets.key_footer import KeyFooter
from widgets.step_header import StepHeader
from widgets.why import WhyPanel

if TYPE_CHECKING:
    from tui.core.spec import JobSpec
    from tui.planning.plan import LaunchPlan


class WizardHost(Protocol):
    """What a step needs of the app that shows it (`tui.app.DtrainApp` is one).

    Declared here rather than imported from `tui.app` so that the app imports its screens and
    never the other way round.
    """

    spec: JobSpec
    review_target: str
    spec_built: bool
    """False until `spec` is first read or set: the first frame is drawn without the model (see
    `tui.app.DtrainApp.on_ready`, which then builds it and syncs the screen shown)."""
    framework: str
    """`spec.framework`, read without building the spec."""
    counts_answered: bool
    """The user typed nodes or GPUs per node (this machine keeps them)."""

    def current_plan(self, target: str | None = None) -> LaunchPlan: ...
    def next_step(self, current: int) -> None: ...
    def goto_step(self, index: int) -> None: ...


class WizardStep(Screen[None]):
    """One step of the wizard. Subclasses yield their widgets from `form()`."""

    DEFAULT_CSS = """
    WizardStep #nav-spacer { color: $text-muted; text-align: center; }
    WizardStep.-wide #nav-spacer { visibility: hidden; }
    /* Notices rise above the nav bar on the form's side: Next, "Why: F1" and the Why panel
       stay in view. */
    WizardStep ToastRack { margin-bottom: 2; }
    WizardStep ToastHolder { align-horizontal: left; }
    """
    STEP: ClassVar[int] = 0
    AUTO_FOCUS = ".field"
    NEXT_LABEL: ClassVar[str] = "Next"
    SCROLL_FORM: ClassVar[bool] = True
    """False for steps whose content scrolls by itself (the review's tabs)."""
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+n", "next", "Next", priority=True),
    ]

    can_advance: var[bool] = var(True, bindings=True)
    """False while the step holds a value the model rejects."""

    app: WizardHost  # type: ignore[assignment]  (a Textual App that also has these)

    def compose(self) -> ComposeResult:
        self._add_width_class()
        yield Header(show_clock=False)
        yield StepHeader(self.STEP)
        with Horizontal(id="body"):
            with (VerticalScroll if self.SCROLL_FORM else Vertical)(id="form"):
                yield from self.form()
                yield Static("", id="error", classes="error")
            yield WhyPanel(id="why")
        with Horizontal(id="nav"):
            yield Button("‹ Back", id="back", disabled=self.STEP == 0, compact=True)
            # Below 96 columns the Why panel is hidden: this says where it went.
            yield Static("Why: F1", id="nav-spacer")
            yield Button(f"{self.NEXT_LABEL} ›", id="next", variant="primary", compact=True)
        yield KeyFooter()

    def form(self) -> ComposeResult:
        yield from ()

    def _add_width_class(self) -> None:
        """The breakpoint class of the app's width (`-narrow`, `-wide`), before the first layout.
        Textual adds it on the screen's first Resize, after a layout and a paint without it:
        each screen would be styled, laid out and painted twice before its first frame."""
        width = self.app.size.width
        points = self.HORIZONTAL_BREAKPOINTS
        points = (self.app.HORIZONTAL_BREAKPOINTS if points is None else points) or []
        for breakpoint, name in sorted(points, reverse=True):
            if width >= breakpoint:
                self.add_class(name)
                return

    def on_mount(self) -> None:
        self._sync_shown()

    returning = False
    """Set on leaving for a later step: shown again (Back, an Edit button), typing goes to the
    first field, not to the button pressed last. A dialog closing leaves focus where it was."""

    def on_screen_resume(self) -> None:
        # Later steps or the command palette may have changed the spec meanwhile.
        self._sync_shown()
        if self.returning:
            self.returning = False
            self.call_after_refresh(self.focus_first_field)

    def focus_first_field(self) -> None:
        """Focus the first field that takes input; a text field's whole value is selected, so
        typing replaces it and an arrow key keeps it (the cursor was left at its end)."""
        field = next((w for w in self.query(".field") if w.focusable), None)
        if field is None:
            return
        field.focus()
        if isinstance(field, Input):
            field.select_all()

    def _sync_shown(self) -> None:
        """`sync()`, but not for the first screen before the app has made the spec: the why
        panel's words need the model and the framework's module, which load just after the
        first frame (the app then syncs the screen; the panel fills a tenth of a second on)."""
        if self.app.spec_built:
            self.sync()

    def sync(self) -> None:
        """Refresh the widgets and the why panel from the App's spec."""
        self.query_one(WhyPanel).update(self.why(self.app.spec))

    def why(self, spec: JobSpec) -> str:
        return ""

    # ---- applying changes --------------------------------------------------------------

    def apply(self, **changes: Any) -> bool:
        """Validate `changes` against the current spec; on success it becomes the App's spec."""
        from pydantic import ValidationError  # here: the first frame does not need it

        from tui.core.answers import error_field, friendly

        try:
            self.app.spec = self.app.spec.with_changes(**changes)
        except ValidationError as err:
            self.show_error(friendly(err), error_field(err))
            return False
        self.show_error(None)
        self.query_one(WhyPanel).update(self.why(self.app.spec))
        return True

    def replace(self, spec: JobSpec) -> None:
        """Adopt an already valid spec (e.g. after switching framework)."""
        self.app.spec = spec
        self.show_error(None)
        self.query_one(WhyPanel).update(self.why(spec))

    def show_error(self, message: str | None, field: str | None = None) -> None:
        message = in_form_words(message) if message is not None else None
        self.query_one("#error", Static).update(message or "")
        self.can_advance = message is None
        if message is not None:
            # The explanation is in the numbers of the last valid answer: showing it beside an
            # invalid one would explain a job the user no longer asked for.
            self.query_one(WhyPanel).update(
                f"**Not valid yet.** {message}\n\nThe explanation comes back, in your "
                "numbers, once the field is fixed."
            )
        for widget in self.query(".field"):
            widget.set_class(field is not None and widget.id == _widget_id(field), "-invalid")

    # ---- navigation --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next" and not self.can_advance:
            return None
        if action == "back" and self.STEP == 0:
            return None
        return True

    def watch_can_advance(self, ok: bool) -> None:
        self.query_one("#next", Button).disabled = not ok

    def action_next(self) -> None:
        if self.can_advance:
            self.returning = True  # whatever brings it back comes from a later step
            self.app.next_step(self.STEP)

    def action_back(self) -> None:
        if self.STEP > 0:
            self.app.pop_screen()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "next":
            event.stop()
            self.action_next()
        elif event.button.id == "back":
            event.stop()
            self.action_back()


def labelled(label: str, widget: Widget, hint: str = "") -> Horizontal:
    """`label  [widget]` on one line, the way every form field is laid out."""
    children: list[Widget] = [Label(label, classes="field-label"), widget]
    if hint:
        children.append(Static(hint, classes="field-hint"))
    return Horizontal(*children, classes="field-row")


@cache
def field_labels() -> dict[str, str]:
    """The model's field names (what `--set` takes) as the form labels them."""
    from tui.frameworks import registry  # not at import: the first frame lists no fields

    return {
        "gpus_per_node": "GPUs per node",
        "parameter_servers": "Parameter servers",
        "sku": "VM size",
        "code": "Code folder",
        "shm_size": "Shared memory",
        "compute": "Compute cluster",
        "display_name": "Display name",
        **{field: label for f in registry.frameworks() for field, label in f.field_labels.items()},
    }


def in_form_words(message: str) -> str:
    """A model message that starts `field: …` with the field named as the form names it."""
    field, sep, rest = message.partition(": ")
    if not sep or " " in field:
        return message
    name, dot, key = field.partition(".")
    label = field_labels().get(name, name.replace("_", " ").capitalize())
    return f"{label}{' ' + key if dot else ''}: {rest}"


def _widget_id(field: str) -> str:
    return field.split(".")[0].replace("_", "-")
