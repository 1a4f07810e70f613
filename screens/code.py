"""Step 4: the code, the script and its arguments, the environment, compute and env vars."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Input, Label, Select, Static

from screens.base import WizardStep, labelled
from tui.core.answers import parse_args
from tui.core.catalog import environments, find_sku, suggested_env
from tui.core.job_checks import code_problems
from tui.core.spec import JobSpec
from tui.frameworks import registry
from tui.planning.plan import plan
from widgets.env_editor import EnvEditor
from widgets.options_form import OptionsForm

CUSTOM = "__custom__"
INLINE = "__inline__"
"""The inline environment a job file defined (image, build, conda file): kept unless replaced."""
# input id -> (spec field, empty means None)
TEXT_FIELDS = {
    "code": ("code", True),
    "script": ("script", False),
    "command": ("command", True),
    "compute": ("compute", True),
    "experiment": ("experiment", True),
    "display-name": ("display_name", True),
    "shm-size": ("shm_size", True),
    "stacks": ("stacks", False),
}


def _text(value: Any) -> str:
    return "" if value is None else str(value)


NCCL_INFO_COST = (
    "With it each rank's log says which network NCCL used (the job screen and doctor read it); "
    "it costs about 100-400 lines (10-40 KB) per rank when NCCL sets up, nothing per step."
)
"""What NCCL_DEBUG=INFO costs: its lines come once per communicator (version, network, one or
two per channel and peer; ~100 bytes each in tests/logs/data/nccl), never per training step."""


class CodeStep(WizardStep):
    """Where the code is and how it runs; suggested NCCL variables are offered, not forced."""

    STEP = 3
    BINDINGS: ClassVar = [Binding("f4", "nccl_debug", "NCCL INFO", show=False)]

    def __init__(self) -> None:
        super().__init__()
        self._inline: dict[str, Any] | None = None
        """The job file's inline environment, so choosing it again after another restores it."""

    def form(self) -> ComposeResult:
        spec = self.app.spec
        if isinstance(spec.environment, dict):
            self._inline = spec.environment

        def box(wid: str, value: object, placeholder: str = "") -> Input:
            return Input(
                _text(value), id=wid, classes="field", placeholder=placeholder, compact=True
            )

        yield Label("Your code", classes="question")
        yield labelled("Code folder", box("code", spec.code), "uploaded")
        yield labelled("Script", box("script", spec.script))
        yield Static("", id="script-check", classes="hint")
        yield labelled(
            "Arguments",
            box(
                "args",
                " ".join(_quote(a) for a in spec.args),
                "as in a shell: --epochs 3 --name 'my run'",
            ),
        )
        yield labelled(
            "Full command",
            box("command", spec.command, "optional: replaces script + arguments, used as typed"),
        )
        for framework in registry.frameworks():  # each framework's own options, if it has some
            if framework.code_form is not None:
                yield OptionsForm(framework.code_form, spec, id=f"form-{framework.name}")
        yield Label("Where it runs", classes="question")
        yield Static(AZURE_ONLY, id="azure-only", classes="hint")
        yield labelled(
            "Environment",
            Select(
                self._env_options(spec),
                id="environment",
                allow_blank=False,
                classes="field",
                compact=True,
            ),
        )
        yield labelled(
            "Custom environment",
            box("environment-custom", "", "azureml:name@latest or azureml:name:version"),
        )
        yield labelled("Compute cluster", box("compute", spec.compute))
        yield labelled("Shared memory", box("shm-size", spec.shm_size, "e.g. 16g"))
        yield labelled("Experiment", box("experiment", spec.experiment, "optional"))
        yield labelled("Display name", box("display-name", spec.display_name, "optional"))
        yield labelled(
            "Stack dump after (min)", box("stacks", str(spec.stacks), "0: no stack dumper")
        )
        yield Label("Extra environment variables", classes="question")
        yield EnvEditor(spec.env, id="env", classes="field")
        yield Button("", id="suggest-nccl", compact=True)
        yield Static("", id="nccl-debug", classes="hint")
        yield Static("", id="code-hint", classes="hint")

    def sync(self) -> None:
        super().sync()
        spec = self.app.spec
        here = self.app.review_target == "local"  # said as the backend that runs it does it
        self.query_one("#code").parent.query_one(".field-hint", Static).update(
            "copied" if here else "uploaded"
        )
        self.query_one("#azure-only").display = here
        select = self.query_one("#environment", Select)
        if isinstance(spec.environment, dict):
            self._inline = spec.environment
        select.set_options(self._env_options(spec))
        select.value = self._shown(spec)
        custom = self.query_one("#environment-custom", Input)
        custom.parent.display = select.value == CUSTOM
        if select.value == CUSTOM:
            custom.value = str(spec.environment)
        self.query_one(EnvEditor).set_env(spec.env)
        self._offer_nccl(spec)
        self._show_form(spec)
        self._check_paths(spec)

    @staticmethod
    def _shown(spec: JobSpec) -> str:
        """The choice in the Environment list that stands for `spec.environment`."""
        curated = [e.id for e in environments(spec.framework)]
        if isinstance(spec.environment, dict):
            return INLINE
        if spec.environment is None or spec.environment in curated:
            return spec.environment or curated[0]
        return CUSTOM

    def _env_options(self, spec: JobSpec) -> list[tuple[str, str]]:
        inline = [("Inline, as your job file defines it", INLINE)] if self._inline else []
        curated = [(e.title, e.id) for e in environments(spec.framework)]
        return inline + curated + [("Custom…", CUSTOM)]

    def _offer_nccl(self, spec: JobSpec) -> None:
        missing = {k: v for k, v in suggested_env(find_sku(spec.sku)).items() if k not in spec.env}
        button = self.query_one("#suggest-nccl", Button)
        button.display = bool(missing)
        button.label = "Add suggested: " + ", ".join(f"{k}={v}" for k, v in missing.items())
        on = spec.env.get("NCCL_DEBUG", "").upper() == "INFO"
        self.query_one("#nccl-debug", Static).update(
            f"F4: NCCL_DEBUG=INFO {'on' if on else 'off'}. {NCCL_INFO_COST}"
        )

    def action_nccl_debug(self) -> None:
        """F4: NCCL_DEBUG=INFO on or off, in one key."""
        env = dict(self.app.spec.env)
        if env.get("NCCL_DEBUG", "").upper() == "INFO":
            env.pop("NCCL_DEBUG")
        else:
            env["NCCL_DEBUG"] = "INFO"
        if self.apply(env=env):
            self.query_one(EnvEditor).set_env(self.app.spec.env)
            self._offer_nccl(self.app.spec)

    def _check_script(self, spec: JobSpec) -> bool:
        """Whether the script is there (said under it as it is typed, with the likely name),
        and what it lacks for this plan (advice, read with ast; never blocks Next). True when
        it said the script is missing."""
        missing = missing_script_text(spec)
        self.query_one("#script-check", Static).update(
            missing or script_check_text(spec, gpus=self.app.review_target != "local")
        )
        return missing is not None

    def _check_paths(self, spec: JobSpec) -> bool:
        error, warning = code_problems(spec)
        if error:
            self.show_error(error, "code")
        said = self._check_script(spec)  # a missing script: said once, under the script
        self.query_one("#code-hint", Static).update(f"⚠ {warning}" if warning and not said else "")
        return error is None

    def apply(self, **changes: Any) -> bool:
        return super().apply(**changes) and self._check_paths(self.app.spec)

    def _show_form(self, spec: JobSpec) -> None:
        """The framework's own options, unless the job runs its own command (and files)."""
        for form in self.query(OptionsForm):
            form.display = form.id == f"form-{spec.framework}" and spec.command is None
            if form.display:
                form.show(plan(spec))

    def on_options_form_changed(self, event: OptionsForm.Changed) -> None:
        event.stop()
        if self.apply(**{event.field: event.value}):
            self._show_form(self.app.spec)

    # ---- events ----------------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        wid = event.input.id or ""
        if wid in TEXT_FIELDS:
            event.stop()
            field, nullable = TEXT_FIELDS[wid]
            value = event.value.strip() if field != "command" else event.value
            self.apply(**{field: None if nullable and not value.strip() else value})
        elif wid == "args":
            event.stop()
            try:
                args = parse_args(event.value)
            except ValueError as err:
                self.show_error(str(err), "args")
                return
            self.apply(args=args)
        elif wid == "environment-custom":
            event.stop()
            self.apply(environment=event.value.strip() or None)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id != "environment":
            return
        event.stop()
        if event.value != event.select.value or event.value == self._shown(self.app.spec):
            return  # set by sync() since, or what the spec already holds: nothing chosen
        custom = self.query_one("#environment-custom", Input)
        custom.parent.display = event.value == CUSTOM
        if event.value == CUSTOM:
            custom.focus()
        elif event.value == INLINE:
            self.apply(environment=self._inline)
        elif event.value is not Select.BLANK:
            default = environments(self.app.spec.framework)[0].id
            self.apply(environment=None if event.value == default else event.value)

    def on_env_editor_changed(self, event: EnvEditor.Changed) -> None:
        editor = self.query_one(EnvEditor)
        if self.apply(env=event.env):
            editor.set_env(self.app.spec.env)
            editor.accepted()
            self._offer_nccl(self.app.spec)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "suggest-nccl":
            event.stop()
            spec = self.app.spec
            extra = suggested_env(find_sku(spec.sku))
            if self.apply(env=extra | dict(spec.env)):
                self.query_one(EnvEditor).set_env(self.app.spec.env)
                self._offer_nccl(self.app.spec)
            return
        super().on_button_pressed(event)

    def why(self, spec: JobSpec) -> str:
        p = plan(spec)
        env = p.environment if isinstance(p.environment, str) else "an inline environment"
        return (
            f"**The command every process runs:**\n\n`{p.command}`\n\n"
            "Arguments reach your script exactly as typed: spaces, quotes, `$` and `;` are "
            "quoted for the shell, never interpreted.\n\n"
            f"**Environment** `{env}`: the Docker image with your framework, CUDA, NCCL and "
            "(for MPI jobs) Open MPI.\n\n"
            f"**Code** `{spec.code}` {_code_goes(self.app.review_target)}.\n\n"
            + registry.get(spec.framework).why("code", spec)
        )


AZURE_ONLY = (
    "Environment, compute cluster and shared memory are Azure ML's: a rehearsal on this machine "
    "runs with this Python and ignores them (kept for submitting there). Experiment and display "
    "name name the job here too."
)


def _code_goes(target: str) -> str:
    """Where the code folder goes on `target`, as the backend that runs it does it."""
    if target == "local":
        return "is copied into one folder per simulated node, the working directory there"
    return "is uploaded to Azure ML as the working directory"


def missing_script_text(spec: JobSpec) -> Text | None:
    """`⚠ trian.py is not in .; did you mean train.py?` when the script is not in the code
    folder on this machine, else None."""
    from difflib import get_close_matches
    from pathlib import Path

    from tui.core.job_checks import is_remote
    from tui.planning.presets import runs_here

    if spec.command is not None or spec.code is None or is_remote(spec.code) or runs_here(spec):
        return None
    text = Text(f"⚠ {spec.script} is not in {spec.code}", style="bold")
    try:
        names = sorted(p.name for p in Path(spec.code).glob("*.py") if p.is_file())
    except OSError:
        names = []
    close = get_close_matches(spec.script, names, n=1, cutoff=0.6)
    if close:
        text.append(f"; did you mean {close[0]}?", style="bold")
    elif names:
        text.append(f" (it has {', '.join(names[:4])}{', …' if len(names) > 4 else ''})")
    return text


def script_check_text(spec: JobSpec, gpus: bool) -> Text:
    """The script check as lines: ⚠ with line and fix per finding, ✓ notes; empty if no script."""
    from tui.planning.script_check import ScriptProblem, check_spec

    out = Text()
    try:
        report = check_spec(spec, gpus=gpus)
    except ScriptProblem as err:
        return Text(f"⚠ {err}", style="bold")
    if report is None:
        return out
    for f in report.findings:
        where = f"line {f.line}: " if f.line else ""
        if f.file and f.file != spec.script:  # in a helper module of the code folder
            where = f"{f.file}:{f.line}: " if f.line else f"{f.file}: "
        out.append(f"⚠ {where}{f.what}\n", style="bold")
        out.append(f"   fix: {f.fix}\n")
    for note in report.notes:
        out.append(f"✓ {note}\n")
    out.rstrip()
    return out


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)
