"""Issue 36, the fourth fresh set (2026-11-27d) folded into the dev half: Azure ML's own runtime
containers failing around the user's, another cloud's quota refusal and spot-VM notice, argparse's
refusal behind a wrapper's `Error:`, a world size compared in numbers, an exception whose own
message names a collective timeout, and the rank in two launchers' older words. Each log is lines
of the folded case named beside it, as its author printed them."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose

STARTED = "step 100 loss 2.31\n"


@pytest.mark.parametrize(
    ("log", "cause"),
    [
        (  # azureml_system_error_azuresdkpython_34501 (Azure/azure-sdk-for-python#34501)
            "- `Failed to execute command group with error Container "
            "`7b8c677203b74b6287e8e7df3f8fb9cf-execution-wrapper-init` failed with status code "
            "`1` and it was not possible to extract the structured error`\n",
            "azureml_system_error",
        ),
        (  # azureml_system_error_kedroazureml_6: the service's JSON with a capital `Code`
            'Error: {"Error"\n{"Code":"ServiceError","Severity":null,"Message":"AzureMLCompute job '
            'failed. OrchestrateJobError: Failed to execute command group"}\n',
            "azureml_system_error",
        ),
        (  # capacity_or_quota_zenml_847 (zenml-io/zenml#847)
            "ResourceLimitExceeded: An error occurred (ResourceLimitExceeded) when calling the "
            "CreateTrainingJob operation: The account-level service limit 'ml.p2.xlarge for "
            "training job usage' is 0 Instances\n",
            "capacity_or_quota",
        ),
        (  # node_preempted_mozillatranslations_964 (mozilla/translations#964)
            "Dec 17 16:03:58Z translations-1-b-linux-v100-gpu start-worker 2024/12/17 16:03:58 "
            "GCP Metadata Service says termination is imminent\n",
            "node_preempted",
        ),
        (  # script_arguments_bnbdataset_6: an en dash where the user meant --
            "Error: unrecognized arguments: \u2013local_rank=19\n",
            "script_arguments",
        ),
        (  # world_size_mismatch_deepspeed_461 (deepspeedai/DeepSpeed#461)
            "AssertionError: MPI world size 16 does not match torch world size 8\n",
            "world_size_mismatch",
        ),
        (  # nccl_timeout_vllmascend_486 (vllm-project/vllm-ascend#486)
            "[rank1]: RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 "
            "OPS function error: HcclAllreduce, error code is 6\n"
            "[rank1]: [ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 OPS "
            "call acl api failed.\n"
            "[rank1]: EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out."
            " Reason: Remote Rank did not send the data in time. Please check the reason for the "
            "rank being stuck\n",
            "nccl_timeout",
        ),
    ],
    ids=[
        "execution-wrapper",
        "service-error-json",
        "resource-limit",
        "spot-notice",
        "unrecognized-arguments",
        "world-size-numbers",
        "exception-naming-a-timeout",
    ],
)
def test_the_cause_is_named_in_the_lines_own_words(log, cause):
    got = diagnose({"train.log": STARTED + log})
    assert (got.verdict, got.cause) == ("failed", cause), got.paragraph()


@pytest.mark.parametrize(
    ("line", "rank"),
    [
        # unknown_failure_centerpoint_224 (tianweiy/CenterPoint#224): torchelastic's older words
        ("Child process 23112 (local_rank 0) FAILED (exitcode 1)", 0),
        # illegal_instruction_horovod_926 (horovod/horovod#926): no node name
        ("mpirun noticed that process rank 3 with PID 0 on node exited on signal 4 (Illegal "
         "instruction).", 3),
    ],
)  # fmt: skip
def test_a_launchers_older_words_still_name_the_rank(line, rank):
    got = diagnose({"train.log": STARTED + line + "\n"})
    assert got.verdict == "failed" and got.rank == rank, got.paragraph()


def test_a_run_scripts_zero_exit_status_proves_it_healthy():
    # healthy_mlperfv11_azuremaskrcnn (mlcommons/training_results_v1.1, Azure's folder)
    tail = (
        "+ ret_code=0\n+ set +x\n+ ret_code=0\n"
        "ENDING TIMING RUN AT 2021-10-18 10:35:23 PM\n"
        "RESULT,OBJECT_DETECTION,,1127,nvidia,2021-10-18 10:16:36 PM\n"
    )
    assert diagnose({"train.log": STARTED + tail}).verdict == "healthy"
