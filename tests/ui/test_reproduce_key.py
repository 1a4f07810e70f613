"""`R`: an Azure ML job run again here, small (issue 41, item 1, the app's half) — against the
workspace emulator (the real azure-ai-ml client, jobs run for real, code snapshots in Azurite
reached through the proxy `tests/azure/test_reproduce.py` uses), with no GPU visible.

From the jobs list, R on a failed Azure job shows what differs from the cluster (the planner's
own lines); Enter runs it here and opens its job screen, which compares the two runs when it
ends. From a job screen, escape goes back with nothing started; a snapshot that cannot be read
is one line with the way out; a job of this machine is already here.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from screens.job import JobScreen
from screens.jobs import JobsScreen, JobsTable
from screens.reproduce import ReproduceScreen
from screens.reproduce_job import ReproducedJobScreen
from tests.azure import conftest as azure
from tests.azure import test_reproduce
from tests.azure.conftest import SCRIPTS
from tests.azure.test_jobs_end_to_end import lines_job
from tests.azure.test_recorded import recorded
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tests.ui.waits import notices, on_screen, until
from tui.backends.base import JobHandle, JobState
from tui.core.plan_types import Target
from tui.core.spec import JobSpec
from tui.planning.reproduce import definition_from_body, reproduce

from .conftest import make_app
from .test_jobs_screen import cells

pytestmark = pytest.mark.slow

# Fixtures: the workspace emulator (a backend signed in to it), Azurite behind its proxy, a
# local job root and backend.
emulator_session = azure.emulator_session
emulator = azure.emulator
azure_backend = azure.backend
storage = test_reproduce.storage
job_root = backends.job_root
local_backend = backends.backend


@pytest.fixture
def no_gpu_and_proxied(storage, monkeypatch) -> None:
    """No GPU seen here; the blob store's Azure-shaped URLs reach Azurite through the proxy."""
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"):
        monkeypatch.setenv(name, storage.url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")  # the emulator and SAS URLs: direct
    monkeypatch.setenv("no_proxy", "127.0.0.1")


def app_with(azure_backend, local_backend):
    return make_app(backends={"local": lambda: local_backend, "azureml": lambda: azure_backend})


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def open_row(pilot, app, name: str) -> JobsScreen:
    """The jobs list, with job `name`'s row highlighted."""
    app.action_jobs()
    await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
    screen = app.screen
    await until(pilot, lambda: name in cells(screen), f"{name} listed", 90)
    screen.query_one(JobsTable).move_cursor(row=list(cells(screen)).index(name))
    await pilot.pause()
    return screen


def differences_shown(app) -> bool:
    return on_screen(app, ReproduceScreen) and app.screen.reproduction is not None


@pytest.mark.usefixtures("no_gpu_and_proxied")
async def test_r_on_a_failed_azure_job_shows_what_differs_then_runs_it_here(
    azure_backend, emulator, local_backend, job_root
) -> None:
    name = test_reproduce._cluster_job(azure_backend, emulator, fail_rank=1)
    app = app_with(azure_backend, local_backend)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_row(pilot, app, name)
        await pilot.press("R")
        await until(pilot, lambda: differences_shown(app), "the differences", 90)
        screen = app.screen
        assert f"Reproduce {name} here (Failed on Azure ML: " in text_of(screen, "#repro-title")
        shown = text_of(screen, "#repro-differences")
        assert shown.startswith("What differs from the cluster\n• 1 node × 2 processes instead ")
        assert "instead of 2 nodes × 2 processes: WORLD_SIZE 2 instead of 4" in shown
        assert "no GPU here: the ranks run on CPUs, so PyTorch's process group uses gloo" in shown
        assert "and its packages instead of the job's environment azureml:AzureML-acpt" in shown
        assert "code: the job's own snapshot (azureml:" in shown
        assert not list(job_root.glob("*/job.json"))  # shown, nothing started yet

        await pilot.press("enter")
        await until(pilot, lambda: on_screen(app, ReproducedJobScreen), "its job screen", 60)
        job = app.screen
        assert [h.name for _, h in app.submitted] == [job.handle.name]
        assert job.handle.backend == "local"
        await until(pilot, lambda: job.status and job.status.is_terminal, "the run's end", 120)
        assert job.status.state is JobState.FAILED  # rank 1 exists at 1 × 2: it fails here too
        await until(pilot, lambda: job.comparison, "the comparison of the two runs", 90)
        compared = text_of(job, "#job-compare")
        assert compared.startswith("Compared with the cluster: same failure here: Exception in")
        assert "on the cluster: Exception in the training script (rank 1)" in compared
        assert "here: Exception in the training script (rank 1)" in compared


@pytest.mark.usefixtures("no_gpu_and_proxied")
async def test_escape_from_the_differences_starts_nothing(
    azure_backend, emulator, local_backend, job_root
) -> None:
    name = test_reproduce._cluster_job(azure_backend, emulator, fail_rank=None)
    app = app_with(azure_backend, local_backend)
    async with app.run_test(size=(120, 36)) as pilot:
        app.show_job(azure_backend, azure_backend.handle(name))  # R on the job screen too
        await until(pilot, lambda: on_screen(app, JobScreen), "the Azure job's screen")
        await pilot.press("R")
        await until(pilot, lambda: differences_shown(app), "the differences", 90)
        assert "(Completed on Azure ML: " in text_of(app.screen, "#repro-title")
        await pilot.press("escape")
        await until(pilot, lambda: on_screen(app, JobScreen), "back on the job screen")
        assert not isinstance(app.screen, ReproducedJobScreen)
        await pilot.pause(0.3)
        assert app.submitted == [] and not list(job_root.glob("*/job.json"))


@pytest.mark.usefixtures("no_gpu_and_proxied")
async def test_the_shape_here_is_chosen_with_keys_and_the_differences_follow(
    azure_backend, emulator, local_backend, job_root
) -> None:
    name = test_reproduce._cluster_job(azure_backend, emulator, fail_rank=None)
    app = app_with(azure_backend, local_backend)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_row(pilot, app, name)
        await pilot.press("R")
        await until(pilot, lambda: differences_shown(app), "the differences", 90)
        screen = app.screen
        said = lambda: text_of(screen, "#repro-differences")  # noqa: E731
        assert "• 1 node × 2 processes instead of 2 nodes × 2 processes" in said()
        await pilot.press("plus")
        await until(pilot, lambda: "• 1 node × 3 processes instead" in said(), "1 × 3")
        await pilot.press("n")
        await until(pilot, lambda: "• 2 nodes × 3 processes instead" in said(), "2 × 3")
        assert "WORLD_SIZE 6 instead of 4" in said()
        await pilot.press("minus", "minus", "minus", "minus")  # not below one a node
        await until(pilot, lambda: "• 2 nodes × 1 process" in said(), "2 × 1")
        assert screen.shape == (2, 1)
        assert not list(job_root.glob("*/job.json"))  # planned only: nothing started


@pytest.mark.usefixtures("no_gpu_and_proxied")
async def test_a_snapshot_that_cannot_be_read_is_one_line_with_the_way_out(
    tmp_path, azure_backend, emulator, local_backend, job_root
) -> None:
    # A folder the workspace has no files of: the code version exists, its blobs do not.
    code = tmp_path / "src"
    code.mkdir()
    shutil.copy(SCRIPTS / "lines.py", code / "lines.py")
    (code / "marker.txt").write_text(str(tmp_path))
    job = azure_backend.submit(lines_job(1, code=str(code)))
    app = app_with(azure_backend, local_backend)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_row(pilot, app, job.name)
        await pilot.press("R")
        screen = app.screen
        line = lambda: text_of(screen, "#repro-progress")  # noqa: E731
        await until(pilot, lambda: "cannot be read" in line(), "the reason", 90)
        (said,) = line().splitlines()
        assert said.startswith(f"the code snapshot of job {job.name} cannot be read: code asset")
        assert "holds no files at https://" in said
        assert said.endswith(f"reproduce {job.name} --code FOLDER` to run a local copy of its code")
        await pilot.press("enter")
        await until(pilot, lambda: "Not ready" in notices(app), "Run refused")
        assert app.submitted == [] and not list(job_root.glob("*/job.json"))


@pytest.mark.usefixtures("no_gpu_and_proxied")
async def test_r_on_a_job_of_this_machine_says_it_is_already_here(
    azure_backend, local_backend, job_root
) -> None:
    spec = JobSpec(
        sku=None, nodes=1, gpus_per_node=1, code=str(backends.SCRIPTS), script="ranks.py"
    )
    here = local_backend.submit(local_plan(spec))
    app = app_with(azure_backend, local_backend)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_row(pilot, app, here.name)
        await pilot.press("R")
        await until(pilot, lambda: "already here" in notices(app), "the notice")
        assert (
            notices(app) == f"{here.name} is already here: a job of this machine (Enter opens it)"
        )
        assert isinstance(app.screen, JobsScreen)
        assert len(list(job_root.glob("*/job.json"))) == 1  # its own, nothing new
        local_backend.cancel(here)


# ---- the differences screen as it looks ------------------------------------------------------


class ShownReproduce(ReproduceScreen):
    """The differences screen of the recorded job made distributed (4 nodes × 8 processes),
    planned here with fixed paths and ports, so the picture does not change between runs."""

    def _prepare(self) -> None:
        body = recorded("job_create_201.json")
        body["properties"].update(
            command="python train.py --data ${{inputs.testdataset}} --out ${{outputs.model}}",
            distribution={"distributionType": "PyTorch", "processCountPerInstance": 8},
            resources={"instanceCount": 4},
        )
        body["properties"]["outputs"]["model"] = {
            "jobOutputType": "uri_folder",
            "uri": "azureml://x",
        }
        folder = Path("/work/repro")
        rep = reproduce(
            definition_from_body(body),
            folder / "code",
            folder,
            target=Target("local", 29500, (29501, 29502), 2),
            gpus_here=0,
            python="Python 3.11.7, /work/.venv/bin/python",
            code_note=f"code: the job's own snapshot (azureml:train-code:1), copied to {folder}",
        )
        self.post_message(self.Prepared(rep, []))


def test_the_differences_screen_snapshot(snap_compare) -> None:
    # Read in the SVG's text: the title with the cluster's shape, then each difference (1 × 2
    # instead of 4 × 8, gloo without a GPU, this Python instead of the job's image, the code,
    # the input and output replaced) and Run / Back in the footer.
    async def open_it(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(ShownReproduce(None, JobHandle("azureml", "test_756573810826")))
        await pilot.pause()

    assert snap_compare(make_app(), run_before=open_it, terminal_size=(120, 36))
