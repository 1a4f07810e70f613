"""The pieces behind the hostile probes, checked without a subprocess."""

from __future__ import annotations

import tracemalloc

import pytest

from tui.backends.azureml.workspace import NOT_SIGNED_IN, sign_in_message
from tui.backends.local.backend import job_base
from tui.core.reading import InputProblem, load_yaml
from tui.core.spec import JobSpec
from tui.planning.plan import Target, plan
from tui.planning.presets import get_preset

# What azure-identity 1.x raised with a service principal set and no network (recorded here,
# DefaultAzureCredential.get_token with AZURE_TENANT_ID/CLIENT_ID/CLIENT_SECRET, no DNS).
RECORDED = (
    "DefaultAzureCredential failed to retrieve a token from the included credentials.\n"
    "Attempted credentials:\n\tEnvironmentCredential: Authentication failed: "
    "HTTPSConnection(host='login.microsoftonline.com', port=443): Failed to resolve "
    "'login.microsoftonline.com' ([Errno -2] Name or service not known)\nTo mitigate this "
    "issue, please refer to the troubleshooting guidelines here at "
    "https://aka.ms/azsdk/python/identity/defaultazurecredential/troubleshoot."
)


def test_an_unreachable_sign_in_endpoint_names_the_credential_and_the_cause():
    message = sign_in_message(Exception(RECORDED))
    assert message.startswith("signing in to Azure with EnvironmentCredential")
    assert "login.microsoftonline.com cannot be reached (Name or service not known)" in message
    assert "AZURE_CLIENT_SECRET" not in message  # it is set: telling the user to set it misleads


def test_sources_that_are_not_set_up_still_say_how_to_sign_in():
    unavailable = (
        "DefaultAzureCredential failed to retrieve a token from the included credentials.\n"
        "Attempted credentials:\n\tEnvironmentCredential: EnvironmentCredential authentication "
        "unavailable. Environment variables are not fully configured.\n\tAzureCliCredential: "
        "Azure CLI not found on path\n"
    )
    assert sign_in_message(Exception(unavailable)) == NOT_SIGNED_IN


def test_a_local_job_is_named_by_the_shape_it_runs():
    preset = get_preset("pytorch-ddp").spec
    small = preset.with_changes(nodes=2, gpus_per_node=2, sku=None)
    assert job_base(plan(small, Target.for_spec("local", small))).endswith("2x2")
    assert "2x8" not in job_base(plan(small, Target.for_spec("local", small)))
    assert job_base(plan(JobSpec(nodes=1, gpus_per_node=1, sku=None))) == "pytorch-1x1"


def test_printing_every_rank_keeps_memory_flat():
    p = plan(JobSpec(nodes=512, gpus_per_node=8, sku=None))
    tracemalloc.start()
    for rank in p.ranks:
        assert rank.env
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(p.ranks) == 4096 and peak < 64 << 20, peak


@pytest.mark.parametrize(
    "text",
    [
        "a: &a [1, 2]\nb: [*a, *a, *a]\n",  # a few reuses are fine
        "env: &e {NCCL_DEBUG: INFO}\nother: *e\n",
    ],
)
def test_ordinary_anchors_still_load(text):
    assert load_yaml(text, "job.yml")


def test_deep_nesting_is_one_line():
    with pytest.raises(InputProblem, match=r"job\.yml"):
        load_yaml("[" * 100_000, "job.yml")
