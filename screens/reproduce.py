"""`ReproduceScreen`: an Azure ML job run again on this machine, small — `R` on the jobs list
or on the job screen (`open_reproduction`).

Reading the job's definition and copying its code snapshot block on the workspace: a thread
worker does both (`tui.backends.azureml.reproduce`, as `dtrain-tui reproduce` does) while one
line says so. Then the screen says exactly what differs from the cluster (the planner's
`differences`), what the pre-flight finds missing here with its install offer, and waits: `n`
and `+`/`-` change the shape here (1 or 2 nodes, 1 to 8 processes each; 1 × 2 at first), Enter
starts it with the local backend and opens its job screen (`ReproducedJobScreen`), escape goes
back with nothing started. A failure is one line with the way out, never a traceback.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Static

from screens.install_offer import InstallOffer
from tui.backends.base import JobHandle
from widgets.key_footer import KeyFooter

NODES, GPUS = 1, 2
"""The shape a reproduction runs at here (`dtrain-tui reproduce`'s defaults)."""


def open_reproduction(screen: Screen, backend: Any, handle: JobHandle | None) -> None:
    """`R`: open the reproduction of an Azure ML job; a job of this machine is already here."""
    if handle is None:
        screen.notify("No job to reproduce", severity="warning")
    elif handle.backend == "local":
        screen.notify(f"{handle.name} is already here: a job of this machine (Enter opens it)")
    elif "local" not in getattr(screen.app, "backends", {}):
        screen.notify("Reproducing needs this machine's backend (local)", severity="error")
    else:
        screen.app.push_screen(ReproduceScreen(backend, handle))


class ReproduceScreen(Screen[None]):
    """What differs from the cluster, then Run (Enter) or Back (escape)."""

    DEFAULT_CSS = """
    ReproduceScreen #repro-title { height: auto; padding: 0 1; background: $panel; }
    ReproduceScreen #repro-progress { height: auto; padding: 0 1; color: $text-muted; }
    ReproduceScreen #repro-progress.-error { color: $error; }
    ReproduceScreen #repro-body { height: 1fr; padding: 0 1; }
    ReproduceScreen .question { text-style: bold; color: $primary; margin-top: 1; }
    ReproduceScreen #repro-preflight { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("enter", "next", "Run"),  # `next`: the footer puts it beside Back
        Binding("n", "nodes", "Nodes"),
        Binding("plus,equals_sign", "processes(1)", "More processes"),
        Binding("minus", "processes(-1)", "Fewer processes"),
    ]

    class Prepared(Message):
        """The job was read, its code copied and the run here planned (`remake(nodes,
        processes)` plans it again at another shape, blocking)."""

        def __init__(self, reproduction: Any, findings: list[Any], remake: Any = None) -> None:
            super().__init__()
            self.reproduction, self.findings, self.remake = reproduction, findings, remake

    class Refused(Message):
        """The job cannot be made ready here; `line` says why and the way out."""

        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    def __init__(self, backend: Any, handle: JobHandle) -> None:
        super().__init__()
        self.backend = backend
        """The Azure ML backend the job is on."""
        self.handle = handle
        self.reproduction: Any = None
        """The job and its run here (`tui.planning.reproduce.Reproduction`) once read."""
        self.findings: list[Any] = []
        """What the pre-flight found for the run here; a blocking one stops Run."""
        self.shape = (NODES, GPUS)
        """Nodes × processes per node the run here has (`n`, `+`, `-` change it)."""
        self._remake: Any = None
        self._starting = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(f"[b]Reproduce {escape(self.handle.name)} here[/b]", id="repro-title")
        yield Static(
            f"Reading job {escape(self.handle.name)}'s definition and code snapshot from the "
            "workspace…",
            id="repro-progress",
        )
        with VerticalScroll(id="repro-body"):
            yield Static("", id="repro-differences")
            yield Static("", id="repro-preflight")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = f"reproduce {self.handle.name}"
        self._prepare()

    @work(thread=True, exclusive=True, group="reproduce-read", exit_on_error=False)
    def _prepare(self) -> None:
        self.post_message(_prepared(self.backend, self.handle.name))

    def on_reproduce_screen_refused(self, message: Refused) -> None:
        progress = self.query_one("#repro-progress", Static)
        progress.update(escape(message.line))
        progress.add_class("-error")

    def on_reproduce_screen_prepared(self, message: Prepared) -> None:
        from tui.planning.plan import describe

        rep = self.reproduction = message.reproduction
        self._remake = message.remake or self._remake
        d = rep.definition
        self.query_one("#repro-title", Static).update(
            f"[b]Reproduce {escape(d.name)} here[/b] ({escape(d.status)} on Azure ML: "
            f"{escape(describe(rep.cluster))})"
        )
        self.query_one("#repro-progress", Static).update(
            f"Here: {escape(describe(rep.local))} · n: nodes, +/-: processes per node"
        )
        lines = "\n".join(f"• {escape(line)}" for line in rep.differences)
        self.query_one("#repro-differences", Static).update(
            f"[b $primary]What differs from the cluster[/]\n{lines}"
        )
        self._show_findings(message.findings)
        installs = [f for f in message.findings if f.blocking and f.install]
        if installs and not self.query(InstallOffer):
            offer = InstallOffer([f.install for f in installs], [f.fix for f in installs])
            self.query_one("#repro-body").mount(offer)

    def _show_findings(self, findings: list[Any]) -> None:
        """The pre-flight's problems and warnings for the run here, each with its fix."""
        self.findings = findings
        text = "\n".join(
            f"[$error]✗ {escape(f.problem)}[/]\n  fix: [b]{escape(f.fix)}[/b]"
            if f.blocking
            else f"[$warning]⚠ {escape(f.problem)}[/]"
            for f in findings
        )
        self.query_one("#repro-preflight", Static).update(text)

    def on_install_offer_finished(self, event: InstallOffer.Finished) -> None:
        """Installed: the pre-flight again; Run then starts it."""
        event.stop()
        if event.ok and self.reproduction is not None:
            from tui.planning.preflight import check_local, forget_modules

            forget_modules()
            self._show_findings(check_local(self.reproduction.local))

    # ---- the shape here -----------------------------------------------------------------

    def action_nodes(self) -> None:
        """1 node ⇄ 2 nodes (as many simulated nodes as a rehearsal has)."""
        self._reshape((2 if self.shape[0] == 1 else 1, self.shape[1]))

    def action_processes(self, step: int) -> None:
        """One process per node more or fewer (1 to 8)."""
        self._reshape((self.shape[0], min(8, max(1, self.shape[1] + step))))

    def _reshape(self, shape: tuple[int, int]) -> None:
        if self._remake is None or self._starting:
            self.notify("Not ready: the job is still being read (or could not be)")
            return
        if shape != self.shape:
            self.shape = shape
            self.query_one("#repro-progress", Static).update(
                f"Planning it at {shape[0]} × {shape[1]}…"
            )
            self._replan(shape)

    @work(thread=True, exclusive=True, group="reproduce-plan", exit_on_error=False)
    def _replan(self, shape: tuple[int, int]) -> None:
        from tui.planning.preflight import check_local

        try:
            rep = self._remake(*shape)
        except Exception as err:  # a shape the plan refuses here: one line, the old one stays
            self.post_message(self.Refused(f"Cannot plan it at {shape[0]} × {shape[1]}: {err}"))
            return
        self.post_message(self.Prepared(rep, check_local(rep.local)))

    # ---- run, back ----------------------------------------------------------------------

    def action_next(self) -> None:
        """Run it here: the screen's way forward."""
        if self.reproduction is None:
            self.notify("Not ready: the job is still being read (or could not be)")
            return
        blocking = next((f for f in self.findings if f.blocking), None)
        if blocking is not None:
            self.notify(f"Cannot run here: {blocking.line()}", severity="error", timeout=10)
            return
        if not self._starting:
            self._starting = True
            self.query_one("#repro-progress", Static).update("Starting it here…")
            self._start(self.reproduction)

    @work(thread=True, exclusive=True, group="reproduce-start", exit_on_error=False)
    def _start(self, rep: Any) -> None:
        from tui.backends.azureml.reproduce import write_stand_ins

        try:
            write_stand_ins(rep)
            local = self.app.backends["local"]()  # type: ignore[attr-defined]
            handle = local.submit(rep.local)
        except Exception as err:  # said in one line; escape goes back
            self._starting = False
            self.post_message(self.Refused(f"Could not start it here: {err}"))
            return
        self.app.call_from_thread(self._started, local, handle)

    def _started(self, local: Any, handle: JobHandle) -> None:
        from screens.reproduce_job import ReproducedJobScreen

        self.app.submitted.append((local, handle))  # type: ignore[attr-defined]
        if not self.is_current:  # left meanwhile: the job runs on, the jobs list shows it
            self.app.notify(f"Started {handle.name} here, reproducing {self.handle.name}")
            return
        cluster = (self.backend, self.handle)
        self.app.switch_screen(ReproducedJobScreen(local, handle, cluster, self.reproduction))

    def action_back(self) -> None:
        self.app.pop_screen()  # the read's worker goes with the screen


def _prepared(backend: Any, name: str) -> Message:
    """Read job `name`, copy its code and plan the run here (blocks): `Prepared`, or `Refused`
    with one line that says why and the way out (the CLI's words)."""
    from pydantic import ValidationError

    from screens.jobs_rows import in_app_words
    from tui.backends.azureml.reproduce import (
        CODE_WAY_OUT,
        plan_here,
        read_definition,
        snapshot_code,
        work_folder,
    )
    from tui.backends.azureml.snapshot import SnapshotUnreadable
    from tui.command_name import hint
    from tui.core.answers import friendly
    from tui.planning.preflight import check_local

    command = hint("reproduce", name)  # the CLI, where --code is the way out
    try:
        definition = read_definition(backend, name)
        folder = work_folder(definition.name)
        code, note = snapshot_code(backend, definition, folder)

        def remake(nodes: int, gpus: int) -> Any:
            return plan_here(definition, code, folder, nodes=nodes, gpus=gpus, code_note=note)

        rep = remake(NODES, GPUS)
        return ReproduceScreen.Prepared(rep, check_local(rep.local), remake)
    except SnapshotUnreadable as why:
        way_out = CODE_WAY_OUT.replace("pass --code FOLDER", f"run `{command} --code FOLDER`", 1)
        return ReproduceScreen.Refused(f"{why}; {way_out}")
    except ValidationError as err:
        return ReproduceScreen.Refused(f"job {name}: {friendly(err)}")
    except Exception as err:  # no such job, not signed in, not a command job: one line
        return ReproduceScreen.Refused(in_app_words(err))
