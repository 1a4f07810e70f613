"""Azure's refusals arrive as one line that says what to do; no traceback, token or signature."""

from __future__ import annotations

import json

import pytest

from tests.azure.conftest import StaticCredential, workspace_of
from tests.azure.emulator import TOKEN, WorkspaceEmulator
from tests.azure.test_jobs_end_to_end import lines_job
from tui.backends.azureml import AzureMLBackend
from tui.backends.azureml.errors import redact
from tui.backends.azureml.workspace import ENV_WORKSPACE, Workspace, find_workspace
from tui.backends.base import BackendError, JobHandle, JobNotFound


def refusal(call, *args) -> str:
    with pytest.raises(BackendError) as caught:
        call(*args)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert TOKEN not in message and "sig=" not in message
    assert caught.value.__cause__ is None
    return message


def other_workspace(em: WorkspaceEmulator, **changes: str) -> AzureMLBackend:
    ws = workspace_of(em)
    fields = {
        "subscription_id": ws.subscription_id,
        "resource_group": ws.resource_group,
        "name": ws.name,
    } | changes
    return AzureMLBackend(Workspace(**fields), StaticCredential())


def test_no_permission_on_the_workspace_says_which_role(backend, emulator) -> None:
    emulator.forbidden = True
    message = refusal(backend.submit, lines_job(1))
    assert message.startswith("no permission for submitting job ")
    assert "workspace ws-test (resource group rg-test)" in message
    assert "AzureML Data Scientist" in message and "AuthorizationFailed" in message


@pytest.mark.parametrize("given_as", ["flag", "env", "config"])
def test_a_workspace_that_does_not_exist_names_the_setting_it_came_from(
    emulator, tmp_path, given_as: str
) -> None:
    ws, config = workspace_of(emulator), tmp_path / "config.json"
    flags = {"subscription": ws.subscription_id, "resource_group": ws.resource_group}
    if given_as == "flag":
        found = find_workspace(**flags, workspace="nope", environ={}, start=tmp_path)
    elif given_as == "env":
        found = find_workspace(**flags, environ={ENV_WORKSPACE: "nope"}, start=tmp_path)
    else:
        ids = {"subscription_id": ws.subscription_id, "resource_group": ws.resource_group}
        config.write_text(json.dumps({**ids, "workspace_name": "nope"}))  # as the portal gives it
        found = find_workspace(**flags, environ={}, start=tmp_path)
    message = refusal(AzureMLBackend(found, StaticCredential()).recent_jobs)
    where = {
        "flag": "check --workspace, which named it",
        "env": "check AZUREML_WORKSPACE_NAME, which named it (or give --workspace)",
        "config": f"check workspace_name in {config}, which named it (or give --workspace)",
    }[given_as]
    assert message == f"workspace nope not found in resource group rg-test: {where}"


def test_a_resource_group_that_does_not_exist(emulator) -> None:
    message = refusal(other_workspace(emulator, resource_group="rg-nope").recent_jobs)
    assert message.startswith("resource group rg-nope not found in subscription ")


def test_a_rejected_token_says_sign_in_again(emulator) -> None:
    backend = AzureMLBackend(workspace_of(emulator), StaticCredential("stale-token"))
    message = refusal(backend.recent_jobs)
    assert message.startswith(
        "Azure ML did not accept your sign-in while listing jobs: run `az login`"
    )
    assert "stale-token" not in message


def test_a_missing_compute_is_named_with_the_fix(backend, emulator) -> None:
    p = lines_job(1, compute="nope")
    message = refusal(backend.check_compute, p)
    assert message == (
        "compute cluster nope not found in workspace ws-test (resource group rg-test): add "
        "--create-compute to create it for this job (the Submit step offers the same), or "
        "choose another with --set compute=NAME"
    )
    # Submitted anyway, the service's validation error comes back as one line.
    message = refusal(backend.submit, p)
    assert message.startswith("Azure ML rejected submitting job ")
    assert message.endswith("Compute nope not found in workspace ws-test")


def test_client_side_validation_is_one_line(backend, emulator) -> None:
    p = lines_job(1)
    bad = p.spec.with_changes(passthrough={"queue_settings": {"job_tier": "gold"}})
    from tui.planning.plan import plan

    message = refusal(backend.submit, plan(bad))
    assert message.startswith("azure-ai-ml refused the job: ")
    assert "'gold' passed is not in set ['spot', 'basic', 'standard', 'premium', 'null']" in message
    assert not emulator.puts()


def test_a_job_that_does_not_exist(backend, emulator) -> None:
    with pytest.raises(JobNotFound, match="no job named nope in workspace ws-test"):
        backend.handle("nope")
    with pytest.raises(JobNotFound):
        backend.status(JobHandle("azureml", "nope"))


def test_a_handle_of_another_backend_is_refused(backend) -> None:
    message = refusal(backend.status, JobHandle("local", "x"))
    assert message == "job x belongs to the local backend, not azureml"


def test_redact_blanks_signatures_tokens_and_keys() -> None:
    text = (
        "GET https://a.blob.core.windows.net/c/b?sv=2019&sig=abc%2B&se=2030 "
        "Authorization: Bearer eyJhbGciOi.eyJzdWIi.c2ln AccountKey=Zm9v; "
        '{"key": "s3cret"} token eyJ0eXAiOiJKV1QiLCJhbGciOi.eyJhdWQiOiJodHRwczo.sig'
    )
    out = redact(text)
    for secret in ("abc%2B", "eyJhbGciOi", "Zm9v", "s3cret", "eyJ0eXAiOiJKV1Qi"):
        assert secret not in out


def test_azure_ai_mls_formatted_validation_error_is_its_details_in_one_line() -> None:
    """azure-ai-ml formats a validation error in colour under a generic head ("One or more
    fields are invalid") and advice; the line says what it found wrong, with no escape codes."""
    from azure.ai.ml._exception_helper import log_and_raise_error
    from azure.ai.ml.exceptions import (
        ErrorCategory,
        ErrorTarget,
        ValidationErrorType,
        ValidationException,
    )

    from tui.backends.azureml.errors import explain

    said = (
        "Supported input path value are ARM id, AzureML id, remote uri or local path.\n"
        "Met <class 'azure.core.exceptions.ServiceRequestError'>:\n"
        "HTTPSConnection(host='acct.blob.core.windows.net', port=443): Failed to resolve"
    )
    cause = ValidationException(
        message=said,
        no_personal_data_message="input path",
        target=ErrorTarget.JOB,
        error_category=ErrorCategory.USER_ERROR,
        error_type=ValidationErrorType.INVALID_VALUE,
    )
    with pytest.raises(Exception) as raised:
        log_and_raise_error(cause)  # the SDK's own formatting, as `jobs.create_or_update` does
    assert "\x1b[" in str(raised.value.message)  # what the SDK hands over
    line = str(explain(raised.value, None, "submitting job x"))
    assert line == "azure-ai-ml refused the job: " + " ".join(said.split())
