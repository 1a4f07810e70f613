"""The job screen shows each GPU's use beside the rank strip, and the GPU that idles while its
peers work, from the sampler's lines in the rank logs; the log view leaves those lines out; a
job here on a machine without `nvidia-smi` says "no GPU here" once."""

from __future__ import annotations

from pathlib import Path

from screens.job import JobScreen
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.injob.dtrain_tui_gpus import line, parse_csv
from tui.logs.follower import Timing
from tui.logs.sources import FileSource
from widgets.gpu_panel import GpuPanel
from widgets.log_view import LogView
from widgets.rank_strip import RankStrip

from .conftest import make_app
from .waits import until

SMI = Path(__file__).parents[1] / "injob" / "data" / "nvidia_smi"


class TwoRanks:
    """A running job on this machine: two rank logs on disk."""

    name = "local"

    def __init__(self, logs: list[Path]) -> None:
        self.logs = logs

    def status(self, job: JobHandle) -> JobStatus:
        return JobStatus(JobState.RUNNING)

    def log_sources(self, job: JobHandle) -> dict[str, FileSource]:
        names = [f"user_logs/std_log_process_{i}.txt" for i in range(len(self.logs))]
        return {n: FileSource(p, name=n) for n, p in zip(names, self.logs, strict=True)}

    def cancel(self, job: JobHandle) -> None:
        pass


def _panel(screen: JobScreen) -> str:
    panel = screen.query_one(GpuPanel)
    return str(panel.render()) if panel.has_class("-shown") else ""


def _strip(screen: JobScreen) -> str:
    return str(screen.query_one(RankStrip).render())


async def _screen(tmp_path: Path, rank0: str) -> tuple[str, str, list[str]]:
    """The GPU panel's text (shown), the rank strip's and the log view's lines of a job whose
    rank 0 printed `rank0`."""
    logs = [tmp_path / "rank0.txt", tmp_path / "rank1.txt"]
    logs[0].write_text(rank0)
    logs[1].write_text("step 1 loss 2.0\n")
    app = make_app()
    async with app.run_test(size=(140, 36)) as pilot:
        screen = JobScreen(TwoRanks(logs), JobHandle("local", "j"), status_interval=0.1,
                           timing=Timing(min_interval=0.1))  # fmt: skip
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: bool(_panel(screen)) or "GPU" in _strip(screen), "GPU words")
        view = screen.query_one(LogView)
        await until(pilot, lambda: view.line_count >= 2, "rank 0's log")
        return _panel(screen), _strip(screen), [view.store.line(n) for n in range(view.line_count)]


async def test_the_gpus_and_the_idle_one_beside_the_ranks_and_not_in_the_log(tmp_path: Path):
    rows = parse_csv((SMI / "two_gpus.csv").read_text())  # GPU 0 idle, GPU 1 at 100 %
    samples = [line("0", 1_700_000_000 + 30 * k, rows) for k in range(4)]
    text = "".join(f"step {k} loss 1.{k}\n{s}\n" for k, s in enumerate(samples))
    panel, _, shown = await _screen(tmp_path, text)
    assert panel.startswith("GPUs 0 0 % 0.0/12 GB · 1 100 % 15.5/16 GB")
    assert "GPU 0 idle 100 % of the last 10 min while the others are busy" in panel
    assert shown == [f"step {k} loss 1.{k}" for k in range(4)]


async def test_no_gpu_here_once_and_quietly(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # this machine, as the screen sees it: no nvidia-smi
    panel, strip, shown = await _screen(tmp_path, "step 0 loss 1.0\nstep 1 loss 0.9\n")
    # said at the end of the rank strip's summary: no row of the log's taken for it
    assert panel == "" and strip.rstrip().endswith("· no GPU here (nothing to sample)")
    assert shown == ["step 0 loss 1.0", "step 1 loss 0.9"]
