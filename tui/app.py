"""The Textual app: owns the current `JobSpec`, the order of the steps, and the backends.

Steps are screens pushed in order (Back pops, so every answer stays where it was); the spec is
frozen and replaced, never mutated. Backends are injected so tests pass real local ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen

from screens.base import WizardStep
from screens.framework import FrameworkStep
from tui.app_jobs import JobsOfTheApp
from tui.core.framework_list import DEFAULT as DEFAULT_FRAMEWORK
from tui.gc_pause import GcPausedUntilReady
from tui.installed_backends import default_backends
from tui.key_order import OrderedKeys
from tui.palette import WizardCommands
from widgets.log_spools import remove_stale_spools

if TYPE_CHECKING:
    from tui.backends.base import JobHandle
    from tui.core.spec import JobSpec
    from tui.planning.plan import LaunchPlan

# The steps in order, imported when first shown so the first frame does not wait for them.
STEPS = (
    "screens.framework:FrameworkStep",
    "screens.launch:LaunchStep",
    "screens.resources:ResourcesStep",
    "screens.code:CodeStep",
    "screens.review:ReviewStep",
)


def step_screen(index: int) -> WizardStep:
    """A new screen for step `index`."""
    from importlib import import_module

    module, name = STEPS[index].split(":")
    return getattr(import_module(module), name)()


def _is_step(screen: Screen, index: int | None = None) -> bool:
    return isinstance(screen, WizardStep) and (index is None or index == screen.STEP)


class DtrainApp(JobsOfTheApp, GcPausedUntilReady, OrderedKeys):
    """dtrain-tui: the wizard from framework to review, then submit (the jobs it starts, and
    quitting while they run: `JobsOfTheApp`). Keys are handled in the order they were typed
    (`OrderedKeys`), however fast they come; no garbage is collected before the first frame
    (`GcPausedUntilReady`)."""

    TITLE = "dtrain-tui"
    SUB_TITLE = "distributed training on Azure ML"
    CSS_PATH = Path(__file__).with_name("app.tcss")
    COMMANDS = App.COMMANDS | {WizardCommands}
    BINDINGS: ClassVar = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]
    # Below 96 columns the why panel gives its room to the form (F1 and the review still teach).
    HORIZONTAL_BREAKPOINTS: ClassVar = [(0, "-narrow"), (96, "-wide")]

    review_target: var[str] = var("azureml")
    """Which target the review shows: "azureml" (placeholders) or "local" (real ports)."""

    def __init__(
        self,
        spec: JobSpec | None = None,
        *,
        review: bool = False,
        backends: dict[str, Callable[[], Any]] | None = None,
        export_path: Path | None = None,
        job: tuple[Any, JobHandle, str | None] | None = None,
        jobs_list: bool = False,
    ) -> None:
        super().__init__()
        self._job = job  # (backend, handle, log): open on that job's screen (`dtrain-tui logs`)
        self._jobs_list = jobs_list  # open on the jobs list (`dtrain-tui jobs`)
        self._spec = spec  # None: the defaults, made when first read (after the first frame)
        self._start_at_review = review
        self.backends = backends if backends is not None else default_backends()
        self.export_path = export_path
        self._plan_cache: tuple[JobSpec, str, LaunchPlan] | None = None
        self.counts_answered = False
        """The user typed nodes or GPUs per node (Resources): "this machine" keeps them rather
        than making the job 2 × 2; a preset's or an example's counts are not an answer."""
        self.submitted: list[tuple[Any, JobHandle]] = []
        """(backend, handle) of every job this app submitted; quitting asks about running ones."""

    @property
    def spec(self) -> JobSpec:
        """The user's answers so far; always valid. Until first read or set, the defaults; made
        then, so that the model (pydantic, the framework modules) loads after the first frame."""
        if self._spec is None:
            from tui.core.spec import JobSpec
            from tui.frameworks import registry  # noqa: F401 (the model's framework rules)

            # As they are, equal to JobSpec() (a test asserts it): validating them would build
            # JobSpec's validator and read the SKU table (on_ready does, a moment later).
            self._spec = JobSpec.model_construct()
        return self._spec

    @spec.setter
    def spec(self, spec: JobSpec) -> None:
        self._spec = spec

    @property
    def spec_built(self) -> bool:
        """Whether `spec` exists yet (the first frame is drawn without it)."""
        return self._spec is not None

    @property
    def framework(self) -> str:
        """`spec.framework`, read without making the spec."""
        return DEFAULT_FRAMEWORK if self._spec is None else self._spec.framework

    def get_default_screen(self) -> Screen:
        if self._job is not None:
            from screens.job import JobScreen

            backend, handle, log = self._job
            return JobScreen(backend, handle, log=log)
        if self._jobs_list:
            from screens.jobs import JobsScreen

            return JobsScreen()
        return FrameworkStep()

    def on_mount(self) -> None:
        if self._start_at_review:
            for index in range(1, len(STEPS)):
                self.push_screen(step_screen(index))

    def on_ready(self) -> None:
        # After the first frame: make the spec (the model and the frameworks load), fill what the
        # first screen left for it, build JobSpec's validator (deferred) and read the SKU table,
        # so that the first answer changed does not wait for them. Stale spools go too.
        self.run_worker(remove_stale_spools, thread=True, group="spools", exit_on_error=False)
        from tui.core.spec import JobSpec
        from tui.frameworks import registry  # noqa: F401 (the model's framework rules)

        drawn_without_spec = not self.spec_built
        JobSpec()
        if drawn_without_spec and _is_step(self.screen):
            self.screen.sync()  # makes the spec

    # ---- plan ------------------------------------------------------------------------------

    def current_plan(self, target: str | None = None) -> LaunchPlan:
        """The plan of the current spec for `target` (default: the review's), cached per spec."""
        kind = target or self.review_target
        cached = self._plan_cache
        if cached and cached[0] is self.spec and cached[1] == kind:
            return cached[2]
        from tui.planning.plan import Target, plan  # first needed after the first frame

        p = plan(self.spec, Target.for_spec(kind, self.spec))
        self._plan_cache = (self.spec, kind, p)
        return p

    # ---- navigation ------------------------------------------------------------------------

    def next_step(self, current: int) -> None:
        if current + 1 < len(STEPS):
            self.push_screen(step_screen(current + 1))

    def goto_step(self, index: int) -> None:
        """Go to step `index`: back down the stack if it is open, else forward through steps."""
        for screen in self.screen_stack:
            if _is_step(screen, index):
                screen.pop_until_active()
                return
        top = self.screen.STEP if _is_step(self.screen) else -1
        for later in range(top + 1, index + 1):
            self.push_screen(step_screen(later))

    def use_spec(self, spec: JobSpec, review: bool = True) -> None:
        """Adopt `spec` (a preset) and show it at Review, keeping the step screens beneath."""
        self.spec = spec
        self.counts_answered = False
        if _is_step(self.screen):
            self.screen.sync()
        if review:
            self.goto_step(len(STEPS) - 1)

    # ---- actions ---------------------------------------------------------------------------

    def action_help(self) -> None:
        from screens.help import HelpScreen, keys_of

        why = self.screen.why(self.spec) if _is_step(self.screen) else None
        self.push_screen(HelpScreen(keys_of(self.screen), why))

    def action_save_preset(self) -> None:
        from screens.dialogs import PromptScreen

        def save(name: str | None) -> None:
            if not name:
                return
            from tui.planning.presets import PresetProblem, save_preset

            try:
                path = save_preset(name, self.spec)
            except (PresetProblem, OSError) as err:
                self.notify(str(err), severity="error", timeout=8)
                return
            self.notify(f"Saved preset {name} ({path})")

        self.push_screen(
            PromptScreen(
                "Save these answers as a preset",
                "my-job",
                "lower-case letters, digits, - and _; `dtrain-tui --preset NAME` opens it",
            ),
            save,
        )

    def action_export(self) -> None:
        from screens.dialogs import ExportScreen

        def export(choice: tuple[str, str] | None) -> None:
            if choice:
                self.export_to(*choice)

        self.push_screen(ExportScreen(), export)

    def export_to(self, fmt: str, path: str) -> None:
        """Write the Azure ML job (the review's spec) as `fmt` to `path`; an existing file that
        would change is asked about first (`screens.export`)."""
        from screens.export import export

        export(self, self.current_plan("azureml"), fmt, path)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if "azureml" in self.backends:
            yield SystemCommand(
                "Attach to a job",
                "Follow a recent Azure ML job of the workspace: status and every rank's log",
                self.action_attach,
            )


def run(spec: JobSpec | None = None, review: bool = False, export_path: Path | None = None) -> int:
    DtrainApp(spec, review=review, export_path=export_path).run()
    return 0


def run_jobs(backends: dict[str, Callable[[], Any]] | None = None) -> int:
    """`dtrain-tui jobs` on a terminal: the app on the jobs list; escape quits."""
    DtrainApp(backends=backends, jobs_list=True).run()
    return 0


def run_job(backend: Any, handle: JobHandle, log: str | None = None) -> int:
    """`dtrain-tui logs NAME` on a terminal: the app on that job's screen; escape quits."""
    DtrainApp(backends={}, job=(backend, handle, log)).run()
    return 0
