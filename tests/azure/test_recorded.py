"""The backend's parsing against bodies the real service sent (tests/azure/data, see SOURCES.md),
read directly — not through the emulator, which could share the backend's assumptions."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tui.backends.azureml.compute import family_key, quota_usages, usage_name
from tui.backends.azureml.errors import azure_message, explain
from tui.backends.azureml.listing import RecentJobs, _parse_job, azure_status
from tui.backends.azureml.logs import datastore_folder
from tui.backends.azureml.status import job_state
from tui.backends.base import JobState
from tui.logs.names import default_log, ordered, rank_logs

DATA = Path(__file__).parent / "data"


def recorded(name: str):
    return json.loads((DATA / name).read_text())


def rest_jobs(bodies: list[dict]) -> list:
    """Job bodies as azure-ai-ml's REST client makes them (what `jobs.list` hands on)."""
    from azure.ai.ml._restclient.arm_ml_service import models
    from azure.ai.ml._restclient.arm_ml_service._utils.model_base import _deserialize

    return _deserialize(list[models.JobBase], bodies)


class Response:
    """Enough of an HTTP response for azure-core's HttpResponseError."""

    def __init__(self, status: int, body: dict) -> None:
        self.status_code, self.reason, self.headers, self._body = status, "Bad Request", {}, body
        self.request = None

    def json(self) -> dict:
        return self._body

    def text(self) -> str:
        return json.dumps(self._body)


def http_error(status: int, body: dict):
    from azure.core.exceptions import HttpResponseError

    return HttpResponseError(response=Response(status, body))


# ---- submit errors -------------------------------------------------------------------------


def test_a_recorded_400_says_its_most_specific_detail_on_one_line() -> None:
    body = recorded("error_400_details.json")
    code, message = azure_message(http_error(400, body))
    assert code == "UserError"
    assert message == (
        "Could not find member 'assetVersion' on object of type 'UriFolderJobOutput'. "
        "Path 'assetVersion', line 1, position 604. (and 1 more)"
    )
    said = str(explain(http_error(400, body), None, "submitting job j1"))
    assert "Request is invalid" not in said and "\n" not in said
    assert said.startswith("Azure ML rejected submitting job j1: Could not find member")


def test_nested_details_give_the_deepest_message_with_secrets_blanked() -> None:
    body = recorded("error_400_details.json")
    body["error"]["details"] = [
        {
            "code": "RequestInvalid",
            "message": "Invalid input.",
            "details": [
                {
                    "code": "DatastoreUnreachable",
                    "message": "GET https://a.blob.core.windows.net/c/x?sv=1&sig=SECRETSIG failed\n"
                    "second line",
                }
            ],
        }
    ]
    _, message = azure_message(http_error(400, body))
    assert message == "GET https://a.blob.core.windows.net/c/x?sv=1&sig=<redacted> failed"


def test_an_error_without_details_keeps_its_message() -> None:
    body = {"error": {"code": "UserError", "message": "Run j9 was not found"}}
    assert azure_message(http_error(404, body)) == ("UserError", "Run j9 was not found")


# ---- jobs ----------------------------------------------------------------------------------


def test_a_recorded_created_job_starts_in_starting_and_names_its_log_folder() -> None:
    (job,) = [_parse_job(j) for j in rest_jobs([recorded("job_create_201.json")])]
    assert azure_status(job) == "Starting"
    assert job_state(azure_status(job)) == (JobState.STARTING, "")
    assert job.studio_url.startswith("https://ml.azure.com/runs/test_756573810826?wsid=")
    assert datastore_folder(job) == (
        "workspaceartifactstore",
        "ExperimentRun/dcid.test_756573810826",
    )


def test_a_list_page_keeps_the_jobs_it_can_read_and_counts_the_others() -> None:
    page = recorded("job_list_page.json")
    assert page["nextLink"]
    parsed = [_parse_job(j) for j in rest_jobs(page["value"])]
    assert [p.name if p else None for p in parsed] == ["test_756573810826", None]  # Labeling
    jobs = RecentJobs()
    jobs.skipped = 3
    assert jobs.note() == "3 jobs of other kinds not shown"
    jobs.skipped = 1
    assert jobs.note() == "1 job of other kinds not shown"


# ---- quota ---------------------------------------------------------------------------------


def usages() -> list[SimpleNamespace]:
    """The recorded usages as azure-ai-ml 1.35's `Usage` holds them (`name` stays a dict)."""
    return [
        SimpleNamespace(id=u["id"], limit=u["limit"], currentValue=u["currentValue"], name=name)
        for u in recorded("usages.json")["value"]
        if (name := u["name"])
    ]


def test_every_recorded_family_usage_name_maps_back_to_a_vm_family_id() -> None:
    families = {s["family"] for s in recorded("vm_sizes.json")["value"]}
    assert families == {"standardDSv2Family"}
    names = {usage_name(u) for u in usages()}
    assert "Standard DSv2 Family Cluster Dedicated vCPUs" in names
    assert family_key("standardDSv2Family") == family_key("DSv2") == "dsv2"
    assert family_key("StandardNCADSA100v4Family") == "ncadsa100v4"
    assert family_key("standardNDASv4_A100Family") == family_key("NDASv4_A100")


@pytest.mark.parametrize(
    ("family", "low_priority", "expected"),
    [
        (
            "standardDSv2Family",
            False,
            [
                ("Standard DSv2 Family Cluster Dedicated vCPUs", 2, 24),
                ("Total Cluster Dedicated Regional vCPUs", 14, 24),
            ],
        ),
        # Per-family low-priority limits are -1 (none): only the region's bounds the job.
        ("standardNCFamily", True, [("Total Cluster LowPriority Regional vCPUs", 18, 50)]),
        # A limit of 0 bounds (no quota granted yet).
        (
            "standardNCSv3Family",
            False,
            [("Total Cluster Dedicated Regional vCPUs", 14, 24)],
        ),
        (
            "standardNCv3Family",
            False,
            [
                ("Standard NCv3 Family Cluster Dedicated vCPUs", 0, 0),
                ("Total Cluster Dedicated Regional vCPUs", 14, 24),
            ],
        ),
    ],
)
def test_the_usages_that_bound_a_cluster_are_found_by_their_real_names(
    family: str, low_priority: bool, expected: list
) -> None:
    found = quota_usages(usages(), family, low_priority)
    assert [(usage_name(u), u.currentValue, u.limit) for u in found] == expected
    # The subscription's figure is taken, not a workspace's or a cluster's copy.
    assert all("/workspaces/" not in u.id for u in found)


def test_no_usage_matches_an_unknown_family() -> None:
    only_families = [u for u in usages() if "Total" not in usage_name(u)]
    assert quota_usages(only_families, "standardNCADSA100v4Family", False) == []


# ---- older runtime log names ---------------------------------------------------------------


def test_the_older_runtimes_driver_logs_are_rank_logs() -> None:
    names = recorded("legacy_log_names.json")
    legacy = names["older_runtime_single_worker"]
    ranks = rank_logs(legacy)
    assert [(r.rank, r.name, r.label) for r in ranks] == [
        (0, "azureml-logs/70_driver_log-worker-0.txt", "worker 0")
    ]
    assert ordered(legacy)[0] == "azureml-logs/70_driver_log-worker-0.txt"
    per_process = [f"azureml-logs/70_driver_log_{i}.txt" for i in (10, 2, 0, 1)]
    assert [r.rank for r in rank_logs([*legacy[:2], *per_process])] == [0, 1, 2, 10]
    assert default_log(["azureml-logs/55_x.txt", "azureml-logs/70_driver_log.txt"]) == (
        "azureml-logs/70_driver_log.txt"
    )
    # A job listing both kinds is read by its common-runtime names.
    mpi = names["common_runtime_mpi"]
    assert [r.name for r in rank_logs([*per_process, *mpi])] == mpi


# ---- a failed run's own error ---------------------------------------------------------------


def run_details(error: dict):
    """Run details as azure-ai-ml's Run History client makes them from the service's body."""
    from azure.ai.ml._restclient.runhistory._utils.model_base import _deserialize
    from azure.ai.ml._restclient.runhistory.models import RunDetails

    return _deserialize(RunDetails, {"runId": "x", "status": "Failed", "error": error})


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        ("run_error_service.json", "ServiceError", "InternalServerError"),
        ("run_error_user.json", "UserError", "User program failed with CalledProcessError"),
    ],
)
def test_a_failed_runs_error_keeps_its_code_and_message(name: str, code: str, message: str):
    from tui.backends.azureml.failure import run_error
    from tui.backends.azureml.status import build_status

    error = run_error(run_details(recorded(name)))
    assert (error.code, error.message.startswith(message)) == (code, True)
    status = build_status("Failed", error=error.message, service_error=error)
    assert status.error == error  # the doctor gets the code, not only the message
    assert status.message.startswith(message)


def test_nested_codes_and_details_reach_the_doctor() -> None:
    from tui.backends.azureml.failure import run_error

    body = recorded("run_error_service.json")
    body["error"]["innerError"] = {"code": "ClientError", "innerError": {"code": "Inner"}}
    body["error"]["details"] = [{"code": "QuotaExceeded", "message": "no cores left"}]
    error = run_error(run_details(body))
    assert error.inner == ("ClientError", "Inner")
    assert error.details == ("QuotaExceeded: no cores left",)
    text = error.text()
    assert '"code": "ServiceError"' in text and '"innerError": {"code": "Inner"}' in text


def test_a_run_without_an_error_has_none() -> None:
    from azure.ai.ml._restclient.runhistory._utils.model_base import _deserialize
    from azure.ai.ml._restclient.runhistory.models import RunDetails

    from tui.backends.azureml.failure import run_error

    assert not run_error(_deserialize(RunDetails, {"runId": "x", "status": "Completed"}))
