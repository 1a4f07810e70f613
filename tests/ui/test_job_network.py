"""The job screen says which network NCCL used, and warns loudly when a VM size with InfiniBand
fell back to TCP sockets (issue 29). The log is a real NCCL_DEBUG=INFO excerpt (Azure ML,
NCCL_IB_DISABLE=1: mlflow/mlflow#8444)."""

from __future__ import annotations

from pathlib import Path

from screens.job import JobScreen
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.logs.follower import Timing
from tui.logs.sources import FileSource

from .conftest import make_app
from .waits import until

NCCL = Path(__file__).parents[1] / "logs" / "data" / "nccl"


class OneLog:
    """A running Azure ML job with one rank log on disk."""

    name = "azureml"

    def __init__(self, log: Path) -> None:
        self.log = log

    def status(self, job: JobHandle) -> JobStatus:
        return JobStatus(JobState.RUNNING)

    def log_sources(self, job: JobHandle) -> dict[str, FileSource]:
        name = "user_logs/std_log_process_0.txt"
        return {name: FileSource(self.log, name=name)}

    def cancel(self, job: JobHandle) -> None:
        pass


def network_line(screen: JobScreen) -> str:
    return str(screen.query_one("#job-network").render())


async def shown(tmp_path: Path, excerpt: str, sku: str) -> tuple[str, bool]:
    """The network line of a job screen following `excerpt`, and whether it is a warning."""
    log = tmp_path / "rank0.txt"
    log.write_text((NCCL / excerpt).read_text(encoding="utf-8") + "epoch 0 loss 1.0\n")
    app = make_app()
    async with app.run_test(size=(140, 30)) as pilot:
        app.spec = app.spec.with_changes(sku=sku, nodes=2)
        screen = JobScreen(OneLog(log), JobHandle("azureml", "j"), status_interval=0.2,
                           timing=Timing(min_interval=0.1))  # fmt: skip
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: bool(network_line(screen)), "the network line")
        return network_line(screen), screen.query_one("#job-network").has_class("-warning")


async def test_a_socket_fallback_on_an_infiniband_size_is_a_loud_warning(tmp_path: Path):
    line, warning = await shown(tmp_path, "mlflow_8444.log", "Standard_ND96asr_v4")
    assert "NCCL used TCP sockets between nodes although Standard_ND96asr_v4" in line
    assert "NCCL_IB_DISABLE" in line and warning


async def test_infiniband_is_one_quiet_line(tmp_path: Path):
    line, warning = await shown(tmp_path, "nccl_429.log", "Standard_ND96asr_v4")
    assert line.startswith("Network:") and "InfiniBand with GPUDirect RDMA" in line
    assert not warning


async def test_f4_on_the_code_step_sets_nccl_debug_and_says_what_it_costs():
    from screens.code import CodeStep

    from .waits import on_screen

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.spec = app.spec.with_changes(env={})
        app.goto_step(3)
        await until(pilot, lambda: on_screen(app, CodeStep), "Code & env")
        app.screen.query_one("#code").focus()  # an input has the focus: F4 still works
        await pilot.press("f4")
        await until(pilot, lambda: app.spec.env.get("NCCL_DEBUG") == "INFO", "NCCL_DEBUG set")
        hint = str(app.screen.query_one("#nccl-debug").render())
        assert "NCCL_DEBUG=INFO on" in hint and "KB) per rank" in hint
        await pilot.press("f4")
        await until(pilot, lambda: "NCCL_DEBUG" not in app.spec.env, "NCCL_DEBUG removed")
