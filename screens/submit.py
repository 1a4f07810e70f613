"""The submit dialog: here or on Azure ML, what the pre-flight found, the workspace and compute
to use (with a form when none is configured), and the install offer for what is missing."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, RadioButton, RadioSet, Static

from screens.dialogs import Dialog
from screens.install_offer import InstallOffer
from screens.workspace_form import WorkspaceForm
from tui.backends.base import ComputeNotFound
from tui.planning.preflight import Finding
from widgets.key_footer import KeyFooter


class SubmitScreen(Dialog):
    """Where to run: this machine (no account) or Azure ML; `default` is chosen first.

    Submit has the focus, so Enter does what it says, unless the pre-flight stops a run here:
    then the focus starts on what can work (install, settle, the choice). Tab follows the
    layout. Azure ML greyed out says why beside it.

    Choosing Azure ML runs `azure_check` in a thread worker: its lines (the workspace found, the
    sign-in, the cluster and quota check) appear as they come; an exception's one line says
    what to fix (how to configure a workspace, `az login`, a missing cluster).
    """

    AUTO_FOCUS = "#ok"  # in sight on a short terminal; then `_focus_start` moves the focus

    def __init__(
        self,
        local_note: str,
        azure_note: str,
        azure_ready: bool,
        azure_check: Callable[[], Iterable[str]] | None = None,
        create_compute: Callable[[str, Callable[[bool | None], None]], None] | None = None,
        default: str = "local",
        local_findings: Sequence[Finding] = (),
        azure: Callable[[], Any] | None = None,
        recheck: Callable[[], Sequence[Finding]] | None = None,
        settle: Callable[[str], Sequence[Finding]] | None = None,
    ) -> None:
        super().__init__()
        self.choices = next((f.choices for f in local_findings if f.choices), ())
        """What the user can answer here to a problem only they can settle (a config file in
        the way: use mine, replace it, another name), as buttons."""
        self.settle = settle
        """Applies an answer and runs the pre-flight again (default: on the app's spec)."""
        self.installs = [f for f in local_findings if f.blocking and f.install]
        """Missing packages pip can install here: offered (`InstallOffer`), never run unasked."""
        self.recheck = recheck
        """The pre-flight again, after an install (default: the app's local plan's)."""
        self.azure = azure
        """Makes the Azure ML backend; with one, choosing Azure ML signs in and shows the
        workspace form (`workspace_choices`), and the check runs on the form's choice."""
        self.workspace: Any = None
        """The form's complete choice (None until all three fields are right)."""
        self.local_blocked = any(f.blocking for f in local_findings)
        """A pre-flight problem stops a run here (the fix is shown; Submit stays put)."""
        from textual.markup import escape

        local_note, azure_note = escape(local_note), escape(azure_note)  # shown as markup
        if local_findings:
            local_note += "\n" + "\n".join(
                f"[$error]✗ {escape(f.problem)}[/]\n  fix: [b]{escape(f.fix)}[/b]"
                if f.blocking
                else f"[$warning]⚠ {escape(f.problem)}[/]"
                for f in local_findings
            )
        self.local_note, self.azure_note, self.azure_ready = local_note, azure_note, azure_ready
        self.default = default if azure_ready else "local"
        self._start = "#ok"
        """Where the focus starts."""
        if self.default == "local" and self.local_blocked:
            # Focus starts on what can work (Submit cannot): install, settle, or choose where;
            # Tab then follows the layout down to Submit and Cancel.
            self._start = (
                "#install"
                if self.installs
                else f"#settle-{self.choices[0][0]}"
                if self.choices
                else "#where"
            )
        self.azure_check = azure_check
        self.create_compute = create_compute
        """Offers to create a missing cluster (name, then called back with True once made)."""
        self._checked = False
        self._lead: list[str] = []
        """Lines said before the check's own (why the form is not there)."""
        self._missing: str | None = None
        self._listing_error: str | None = None
        """Why the workspaces could not be listed (not signed in…): Submit says it again."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Where should it run?", classes="question")
            local = self.default == "local"
            with RadioSet(id="where"):
                yield RadioButton(
                    "This machine (rehearsal, no account)", id="to-local", value=local
                )
                yield RadioButton(
                    "Azure ML" if self.azure_ready else "Azure ML: not installed here (see below)",
                    id="to-azureml",
                    disabled=not self.azure_ready,
                    value=not local,
                )
            note = self.local_note if local else self.azure_note
            if not self.azure_ready:
                note = f"{self.local_note}\n\nAzure ML: {self.azure_note}"
            yield Static(note, id="where-note", classes="hint")
            if self.installs:
                offer = InstallOffer(
                    [f.install for f in self.installs], [f.fix for f in self.installs]
                )
                offer.display = local
                yield offer
            if self.choices:
                with Horizontal(id="settle"):
                    for answer, label in self.choices:
                        yield Button(label, id=f"settle-{answer}", compact=True)
            form = WorkspaceForm(id="workspace-form")
            form.display = False
            yield form
            check = Static("", id="azure-check", classes="hint")
            check.display = False
            yield check
            offer = Button("", id="create-compute", compact=True)
            offer.display = False
            yield offer
            with Horizontal():
                yield Button("Submit", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.default != "local":
            self.on_radio_set_changed(None)
        self.call_after_refresh(self._focus_start)

    def _focus_start(self) -> None:
        # Scrolled to Submit (AUTO_FOCUS), so Submit and Cancel stay in sight on a short
        # terminal, and the focus on what can work.
        if self._start != "#ok":
            self.query_one(self._start).focus(scroll_visible=False)

    def on_radio_set_changed(self, event: RadioSet.Changed | None) -> None:
        local = self.query_one("#to-local", RadioButton).value
        self.query_one("#where-note", Static).update(self.local_note if local else self.azure_note)
        self.query_one("#azure-check", Static).display = not local
        for offer in self.query(InstallOffer):
            offer.display = local
        for row in self.query("#settle"):
            row.display = local
        form = self.query_one(WorkspaceForm)
        form.display = not local and form.choices is not None
        if not local and self.azure is not None and not self._checked:
            self._checked = True
            self.query_one("#azure-check", Static).update("Signing in to list your workspaces…")
            self._list_workspaces()
        elif not local and self.azure_check is not None and not self._checked:
            self._checked = True
            self.query_one("#azure-check", Static).update("Looking for your Azure ML workspace…")
            self._check_azure()

    @work(thread=True, exclusive=True, exit_on_error=False, group="azure-list")
    def _list_workspaces(self) -> None:
        """Sign in and list the subscriptions and workspaces the identity can see."""
        assert self.azure is not None
        try:
            found, choices = self.azure().workspace_choices()
        except Exception as err:  # not signed in, no network: one line with the fix
            from tui.backends.azureml.arm import ListingFailed

            if isinstance(err, ListingFailed) and self.azure_check is not None:
                self._lead = [f"warning: {err}; checking the workspace found instead"]
                self.app.call_from_thread(self._check_azure)  # no form to offer, the old way
            else:
                self.app.call_from_thread(self._listing_failed, str(err))
        else:
            self.app.call_from_thread(self._show_workspaces, found, choices)

    def _listing_failed(self, error: str) -> None:
        """No workspaces to choose from: say why and what to do, and keep it for Submit."""
        if "az login" in error and shutil.which("az") is None:
            error += (
                "; the Azure CLI (`az`) is not installed here: install it "
                "(https://aka.ms/installazurecli), or use the service principal variables"
            )
        self._listing_error = error
        self._show_check([], error)

    def _show_workspaces(self, found: Any, choices: Any) -> None:
        if not self.is_mounted:
            return
        form = self.query_one(WorkspaceForm)
        form.display = not self.query_one("#to-local", RadioButton).value
        self.query_one("#azure-check", Static).update("")
        form.show(found, choices)

    def on_workspace_form_chosen(self, event: WorkspaceForm.Chosen) -> None:
        """All three fields are right: use (and remember) the workspace, then check it."""
        event.stop()
        if event.workspace is not None and event.workspace == self.workspace:
            return
        self.workspace = event.workspace
        if event.workspace is None:  # a field is missing or wrong: the form says which
            self.query_one("#azure-check", Static).update("")
            self.query_one("#create-compute", Button).display = False
            return
        if self.azure_check is not None:
            self.query_one("#azure-check", Static).update("Checking the workspace…")
            self._check_azure()

    @work(thread=True, exclusive=True, exit_on_error=False, group="azure-check")
    def _check_azure(self) -> None:
        """The workspace, sign-in and compute check, line by line (they block on the network)."""
        assert self.azure_check is not None
        lines: list[str] = list(self._lead)
        try:
            if self.azure is not None and self.workspace is not None:
                self.azure().use_workspace(self.workspace)  # and remembered for the next run
            for line in self.azure_check():
                lines.append(line)
                self.app.call_from_thread(self._show_check, list(lines), None)
        except ComputeNotFound as err:  # the one thing the dialog can fix: offer to
            self.app.call_from_thread(self._show_check, lines, str(err), False, err.name)
        except Exception as err:  # one line with the fix, never a traceback
            self.app.call_from_thread(self._show_check, lines, str(err))
        else:
            self.app.call_from_thread(self._show_check, lines, None, True)

    def _show_check(
        self, lines: list[str], error: str | None, done: bool = False, missing: str | None = None
    ) -> None:
        from textual.markup import escape

        if not self.is_mounted:  # dismissed while the check ran
            return
        self._missing = missing if self.create_compute is not None else None
        offer = self.query_one("#create-compute", Button)
        offer.display = self._missing is not None
        if self._missing is not None:
            offer.label = f"Create cluster {self._missing}…"
            error = f"compute cluster {self._missing} does not exist in the workspace"
        shown = [
            f"[b]{escape(line)}[/b]" if line.startswith("warning:") else escape(line)
            for line in lines
        ]
        if error:
            shown.append(f"[$error]{escape(error)}[/]")
        elif not done:
            shown.append("[$text-muted]…[/]")
        self.query_one("#azure-check", Static).update("\n".join(shown))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "create-compute" and self._missing and self.create_compute:
            self.create_compute(self._missing, self._after_create)
            return
        if (event.button.id or "").startswith("settle-"):
            self._settle(event.button.id.removeprefix("settle-"))
            return
        if event.button.id != "ok":
            self.dismiss(None)
            return
        pressed = self.query_one(RadioSet).pressed_button
        kind = (pressed.id or "to-local").removeprefix("to-") if pressed else "local"
        if kind == "local" and self.local_blocked:
            what = "Install and run here, or fix" if self.installs else "Fix"
            self.notify(f"{what} what stops the run here first (above)", severity="error")
            return
        form = self.query_one(WorkspaceForm)
        if kind == "azureml" and self.azure is not None and form.problems:
            wrong = "; ".join(f"{f}: {p}" for f, p in form.problems.items())
            self.notify(f"Choose the workspace first ({wrong})", severity="error")
            return
        if kind == "azureml" and self.azure is not None and self.workspace is None:
            if self._listing_error is None:
                self.notify("Still listing your workspaces…", severity="warning")
                return
            # Said again (the user may have missed it), and asked again: a sign-in done in
            # another terminal meanwhile counts.
            self.notify(f"Cannot submit to Azure ML yet: {self._listing_error}", severity="error")
            self._listing_error = None
            self.query_one("#azure-check", Static).update("Signing in to list your workspaces…")
            self._list_workspaces()
            return
        self.dismiss(kind)

    def on_install_offer_finished(self, event: InstallOffer.Finished) -> None:
        """Installed: check again; nothing left in the way runs the job here."""
        event.stop()
        if not event.ok:
            return
        from tui.planning.preflight import check_local, forget_modules

        forget_modules()
        if self.recheck is not None:
            findings = list(self.recheck())
        else:
            findings = check_local(self.app.current_plan("local"))  # type: ignore[attr-defined]
        self.local_blocked = any(f.blocking for f in findings)
        if self.local_blocked:
            still = "; ".join(f.problem for f in findings if f.blocking)
            self.notify(f"Installed, but the run is still stopped: {still}", severity="error")
            return
        self.dismiss("local")

    def _settle(self, answer: str) -> None:
        """The user's answer to what only they can settle: apply it, check again, and run
        here when nothing is left in the way."""
        from tui.core.plan_types import ConfigFileProblem

        try:
            if self.settle is not None:
                findings = list(self.settle(answer))
            else:
                from tui.planning.preflight import check_local, settle_config

                app: Any = self.app
                app.spec = settle_config(app.current_plan("local"), answer)
                findings = check_local(app.current_plan("local"))
        except (ConfigFileProblem, OSError, ValueError) as err:  # one line, never a traceback
            from tui.core.answers import friendly

            self.notify(friendly(err), severity="error", timeout=10)
            return
        self.local_blocked = any(f.blocking for f in findings)
        if self.local_blocked:
            still = "; ".join(f.problem for f in findings if f.blocking)
            self.notify(f"The run is still stopped: {still}", severity="error")
            return
        self.dismiss("local")

    def _after_create(self, created: bool | None) -> None:
        """Back from creating the cluster: check again, so the quota and size lines show."""
        if created:
            self.query_one("#azure-check", Static).update("Checking the new cluster…")
            self.query_one("#create-compute", Button).display = False
            self._check_azure()
