"""The jobs the app starts: the Submit step's choice and the submission, the Azure ML checks
and cluster creation it offers, the jobs list and attaching to a job, the job screen, and
quitting while a job this app started still runs (keep it, cancel it, or stay).

`JobsOfTheApp` is a part of `DtrainApp` (tui/app.py), which holds the answers and the steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from textual import work

from tui.command_name import hint

if TYPE_CHECKING:
    from tui.backends.base import JobHandle
    from tui.planning.plan import LaunchPlan


class JobsOfTheApp:
    """Submitting, following and quitting; `DtrainApp` supplies the rest (its backends, the
    plan of the current answers, the review's target, and Textual's App)."""

    backends: dict[str, Callable[[], Any]]
    submitted: list[tuple[Any, JobHandle]]
    review_target: str

    if TYPE_CHECKING:

        def current_plan(self, target: str | None = None) -> LaunchPlan: ...

    def action_submit(self) -> None:
        from screens.submit import SubmitScreen
        from tui.planning.preflight import check_local

        p = self.current_plan("local")
        local_note = (
            f"Starts {p.world_size} process{'es' if p.world_size != 1 else ''} on this machine: "
            f"{len(p.nodes)} simulated node{'s' if len(p.nodes) != 1 else ''} × "
            f"{p.workers_per_node}, with the real launchers, loopback addresses and free ports. "
            "Logs are named as on Azure ML."
        )
        azure_ready = "azureml" in self.backends
        azure_note = (
            "Submits the plan the review shows with azure-ai-ml; the Studio link and rank 0's "
            "log follow."
            if azure_ready
            else f"The Azure ML backend is not installed: {azure_install()}."
        )

        def chosen(kind: str | None) -> None:
            if kind:
                self.submit(kind)

        check = self.azure_preflight if azure_ready else None
        create = self.offer_create_compute if azure_ready else None
        self.push_screen(
            SubmitScreen(
                local_note,
                azure_note,
                azure_ready,
                check,
                create,
                default=self.review_target,
                local_findings=check_local(p),
                azure=self.backends.get("azureml"),
            ),
            chosen,
        )

    def offer_create_compute(self, name: str, done: Callable[[bool | None], None]) -> None:
        """Show what creating cluster `name` for the current plan means, and create it if asked."""
        from screens.create_compute import CreateComputeScreen

        backend = self.backends["azureml"]()
        self.push_screen(CreateComputeScreen(backend, self.current_plan("azureml"), name), done)

    def azure_preflight(self) -> Iterator[str]:
        """The Azure ML backend's checks for the current plan (blocks: run it in a worker)."""
        backend = self.backends["azureml"]()
        preflight = getattr(backend, "preflight", None)
        if preflight is not None:
            yield from preflight(self.current_plan("azureml"))

    def action_jobs(self) -> None:
        """The jobs list: every job here and on Azure ML (back to it where it is open)."""
        from screens.jobs import JobsScreen

        for screen in self.screen_stack:
            if isinstance(screen, JobsScreen):
                screen.pop_until_active()
                return
        self.push_screen(JobsScreen())

    def action_attach(self) -> None:
        """Pick a recent Azure ML job and open it on the job screen."""
        factory = self.backends.get("azureml")
        if factory is None:
            self.notify(
                f"Attaching needs the Azure ML backend: {azure_install()}",
                severity="warning",
            )
            return
        from screens.attach import AttachScreen

        backend = factory()

        def chosen(handle: JobHandle | None) -> None:
            if handle is not None:
                self.show_job(backend, handle)

        self.push_screen(AttachScreen(backend), chosen)

    @work(thread=True, exclusive=True, exit_on_error=False, group="submit")
    def submit(self, kind: str) -> None:
        factory = self.backends.get(kind)
        if factory is None:
            self.call_from_thread(self.notify, f"No {kind} backend", severity="error")
            return
        try:
            backend = factory()
            planned = self.current_plan(kind)
            handle = backend.submit(planned)
        except Exception as err:  # shown, never a traceback
            self.call_from_thread(
                self.notify, f"Submit failed: {err}", severity="error", timeout=10
            )
            return
        self.submitted.append((backend, handle))
        self.call_from_thread(self.notify, f"Submitted {handle.name} ({kind})", timeout=10)
        price = None
        if kind == "azureml":  # its nodes' price: the job screen shows what the job costs
            from tui.core.prices import plan_price

            price = plan_price(planned)
        self.call_from_thread(self.show_job, backend, handle, None, price)

    # ---- quitting ----------------------------------------------------------------------------

    async def action_quit(self) -> None:
        """Quit; with a job of ours still running, ask first: keep it running, cancel it, stay."""
        running = self._running_jobs()
        if not running:
            self.exit()
            return
        from screens.dialogs import QuitScreen

        names = [handle.name for _, handle in running]
        self.push_screen(QuitScreen(names, _reattach(running[0])), self._quit_answered)

    def _running_jobs(self) -> list[tuple[Any, JobHandle]]:
        """Jobs this app submitted that have not ended (a local status is a file read; a remote
        one is what its job screen saw last, so quitting never waits on the network)."""
        from screens.job import JobScreen

        seen = {s.handle.name: s.status for s in self.screen_stack if isinstance(s, JobScreen)}
        running = []
        for backend, handle in self.submitted:
            if getattr(backend, "name", "") == "local":
                status = backend.status(handle)
            else:
                status = seen.get(handle.name)
            if status is None or not status.is_terminal:
                running.append((backend, handle))
        return running

    def _quit_answered(self, answer: str | None) -> None:
        running = self._running_jobs()
        if answer == "keep":
            for backend, handle in running:
                keep = getattr(backend, "keep", None)
                if keep is not None:
                    keep(handle)
            lines = [f"{h.name} keeps running; {_reattach((b, h))} opens it" for b, h in running]
            self.exit(message="\n".join(lines) or None)
        elif answer == "cancel":
            self.notify("Canceling " + ", ".join(h.name for _, h in running) + "…")
            self._cancel_and_quit(running)

    @work(thread=True, exclusive=True, exit_on_error=False, group="quit")
    def _cancel_and_quit(self, running: list[tuple[Any, JobHandle]]) -> None:
        lines = []
        for backend, handle in running:
            try:
                backend.cancel(handle)
                lines.append(f"{handle.name}: canceled")
            except Exception as err:  # said once, after the app has gone
                lines.append(f"{handle.name}: cancel failed: {err}")
        self.call_from_thread(self.exit, None, 0, "\n".join(lines))

    def show_job(
        self, backend: Any, handle: JobHandle, log: str | None = None, price: Any = None
    ) -> None:
        """Open the job screen: its status and its log (`log`, else rank 0's), live; with
        `price` (a `PlanPrice`), what the job costs so far and to finish."""
        from screens.job import JobScreen

        self.push_screen(JobScreen(backend, handle, log=log, price=price))

    def reproduce(self, backend: Any, handle: JobHandle) -> None:
        """`R` on a job screen: run the Azure ML job again here, small (screens/reproduce.py;
        the job screen cannot import it: the reproduction's own job screen is built on it)."""
        from screens.reproduce import open_reproduction

        open_reproduction(self.screen, backend, handle)  # type: ignore[attr-defined]


def azure_install() -> str:
    """The command that installs the Azure ML backend here (`preflight.extra_install`)."""
    from tui.planning.preflight import extra_install

    return extra_install("azure")


def _reattach(job: tuple[Any, JobHandle]) -> str:
    """The command that opens `job` again after the app has quit."""
    backend, handle = job
    where = "" if getattr(backend, "name", "") == "local" else " --target azure"
    return f"`{hint('logs', handle.name)}{where}`"
