"""`S` on the job screen (issue 39, item 2): every rank's Python stack, grouped, the odd one out
first, in a panel Escape closes. A real hang on this machine (gloo, CPU torch, 3 ranks: rank 1
sleeps in its data loader while ranks 0 and 2 wait in all_reduce) is named by rank and line; a
job whose ranks cannot be asked (Azure ML) says so in one line, or shows what they printed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS, local_plan, require
from tui.backends.base import JobHandle, JobState, JobStatus
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import Timing
from tui.logs.sources import FileSource
from widgets.stacks_panel import StacksPanel

from .conftest import make_app
from .waits import until

job_root = backends.job_root
backend = backends.backend


def panel_text(screen: JobScreen) -> str:
    return str(screen.query_one(StacksPanel).render())


def footer_keys(screen: JobScreen) -> list[str]:
    return [b.binding.key for b in screen.active_bindings.values() if b.binding.show]


def _wait_for(path: Path, text: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not in {path} within {timeout} s")


@pytest.mark.slow
async def test_s_names_the_rank_that_hangs_and_its_line(backend: LocalBackend):
    require("torch", "torchrun")
    spec = JobSpec(
        framework="pytorch",
        launch="per_node",
        nodes=1,
        gpus_per_node=3,
        sku=None,
        compute=None,
        code=str(SCRIPTS),
        script="hang.py",
        env={"HANG_RANK": "1"},
    )
    job = backend.submit(local_plan(spec))
    logs = backend.root / job.name / "user_logs"
    for rank in range(3):
        _wait_for(logs / f"std_log_process_{rank}.txt", "step 1")

    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = JobScreen(backend, job, status_interval=0.2, timing=Timing(min_interval=0.1))
        await pilot.app.push_screen(screen)
        await until(pilot, lambda: screen.log_name is not None, "the log on display")
        assert "S" in footer_keys(screen)
        panel = screen.query_one(StacksPanel)
        assert not panel.display

        # Past step 1, rank 1 sleeps and the others reach all_reduce a moment later (later on a
        # loaded machine): S is pressed again until they have, never after a guessed sleep.
        for _ in range(30):
            await pilot.press("S")
            await until(pilot, lambda: "load_batch" in panel_text(screen), "the stacks", ceiling=30)
            if "2 ranks (0, 2): all_reduce" in panel_text(screen):
                break
            await pilot.pause(0.5)
        shown = panel_text(screen)
        lines = shown.splitlines()
        # the odd one out leads, with its line of code; the two others are one group
        first = next(i for i, line in enumerate(lines) if line.startswith("rank "))
        assert (
            lines[first] == "rank 1 is elsewhere while the other 2 ranks share one stack: "
            "likely the rank they wait for"
        )
        assert lines[first + 1] == "rank 1: time.sleep ← load_batch hang.py:20"
        assert lines[first + 2].split() == ["load_batch", "hang.py:20"]
        group = next(line for line in lines if line.startswith("2 ranks (0, 2): all_reduce ←"))
        assert "train_step hang.py:25" in group
        assert lines.index(group) > first + 1
        assert "asked 3 rank processes just now" in lines[0]
        assert backend.status(job).state is JobState.RUNNING  # asking killed nobody

        await pilot.press("escape")
        await until(pilot, lambda: not panel.display, "the panel closed")
        assert pilot.app.screen is screen  # Escape closed the panel, not the screen
    backend.cancel(job)


class AzureLike:
    """A job on a backend that cannot ask its ranks: only their logs, as Azure ML has them."""

    name = "azureml"

    def __init__(self, logs: dict[str, Path]) -> None:
        self.logs = logs

    def status(self, job: JobHandle) -> JobStatus:
        return JobStatus(JobState.RUNNING)

    def log_sources(self, job: JobHandle) -> dict[str, FileSource]:
        return {name: FileSource(path, name=name) for name, path in self.logs.items()}

    def cancel(self, job: JobHandle) -> None:
        pass


def _rank_logs(tmp_path: Path, texts: list[str]) -> dict[str, Path]:
    logs = {}
    for rank, text in enumerate(texts):
        path = tmp_path / f"rank{rank}.txt"
        path.write_text(text)
        logs[f"user_logs/std_log_process_{rank}.txt"] = path
    return logs


def _dump(*frames: tuple[str, int, str]) -> str:
    """A dump as faulthandler writes it after the stall watch's own line."""
    lines = [
        "dtrain-tui stacks: the main thread has not moved for 10 min",
        "Current thread 0x00007f3a2c1ff740 (most recent call first):",
    ]
    lines += [f'  File "{file}", line {line} in {function}' for file, line, function in frames]
    return "step 7\n" + "\n".join(lines) + "\n"


WAITING = (
    ("/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", 2050, "all_reduce"),
    ("/mnt/azureml/cr/j/1/exe/wd/train.py", 88, "train_step"),
    ("/mnt/azureml/cr/j/1/exe/wd/train.py", 120, "main"),
)
SLEEPING = (
    ("/mnt/azureml/cr/j/1/exe/wd/data.py", 41, "load_batch"),
    ("/mnt/azureml/cr/j/1/exe/wd/train.py", 87, "train_step"),
    ("/mnt/azureml/cr/j/1/exe/wd/train.py", 120, "main"),
)


async def test_a_job_whose_ranks_cannot_be_asked_says_so_in_one_line(tmp_path: Path):
    logs = _rank_logs(tmp_path, ["step 1\n", "step 1\n"])
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = JobScreen(AzureLike(logs), JobHandle("azureml", "quiet"), status_interval=0.2)
        await pilot.app.push_screen(screen)
        await pilot.press("S")
        await until(pilot, lambda: "cannot ask" in panel_text(screen), "the answer")
        shown = panel_text(screen)
        assert len(shown.splitlines()) == 1
        assert shown.startswith("Stacks: Azure ML cannot ask a job's ranks for their stacks")


async def test_the_stacks_azure_ml_ranks_printed_on_their_own_are_grouped(tmp_path: Path):
    logs = _rank_logs(tmp_path, [_dump(*WAITING), _dump(*SLEEPING), _dump(*WAITING), "step 3\n"])
    async with make_app().run_test(size=(120, 30)) as pilot:
        screen = JobScreen(AzureLike(logs), JobHandle("azureml", "stuck"), status_interval=0.2)
        await pilot.app.push_screen(screen)
        await pilot.press("S")
        await until(pilot, lambda: "load_batch" in panel_text(screen), "the stacks")
        lines = panel_text(screen).splitlines()
        assert "(Azure ML cannot be asked)" in lines[0]
        assert lines[1].startswith("rank 1 is elsewhere while the other 2 ranks share one stack")
        assert lines[2] == "rank 1: load_batch data.py:41"
        assert [line.split() for line in lines[3:6]] == [
            ["load_batch", "data.py:41"],
            ["train_step", "train.py:87"],
            ["main", "train.py:120"],
        ]
        assert lines[6] == "2 ranks (0, 2): all_reduce ← train_step train.py:88"
        assert lines[-1] == "no stack from ranks 3"
