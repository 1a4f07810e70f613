"""Issue 36: three verdicts (healthy only with proof), severity read behind any prefix, Azure
ML's own failures, and specific causes before generic ones, on small logs shaped like real ones."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose
from tui.logs.severity import ERROR, FATAL, NOTICE, read


def test_a_log_that_stops_on_severe_lines_is_failed_and_one_that_proves_nothing_is_not_proven():
    warned = "step 1 loss 0.9\n[W socket.cpp:697] [c10d] The client socket cannot connect\n"
    got = diagnose({"train.log": warned + "step 2 loss 0.8\n"})
    assert (got.verdict, got.cause) == ("not_proven", "not_proven") and not got.healthy
    stopped = "step 1 loss 0.9\nnode-3: [E] NCCL WARN NET/Socket : peer closed the connection\n"
    got = diagnose({"train.log": stopped})
    assert got.verdict == "failed" and got.cause == "nccl_system_error"
    assert "peer closed" in got.evidence.text


def test_not_proven_lists_the_most_severe_lines_as_file_and_line():
    log = "loading\nERROR: could not reach the tracker\nstep 1 loss 0.9\nstep 2 loss 0.8\n"
    got = diagnose({"rank0.log": log})
    assert got.verdict == "not_proven"
    assert [e.at for e in got.severe] == ["rank0.log:2"]
    assert "rank0.log:2: ERROR: could not reach the tracker" in got.paragraph()
    assert got.to_json()["severe"][0]["at"] == "rank0.log:2"


@pytest.mark.parametrize(
    "line",
    [
        "Epoch 9: 100%|██████████| 50/50 [00:10<00:00]",
        "`Trainer.fit` stopped: `max_epochs=10` reached.",
        "INFO:torch.distributed.elastic.agent.server.api:[default] worker group successfully "
        "finished. Waiting 300 seconds for other agents to finish.",
        "Process finished with exit code 0",
        "The experiment completed successfully. Finalizing run...",
    ],
)
def test_a_completion_line_with_nothing_severe_after_it_proves_health(line):
    got = diagnose({"train.log": f"step 1 loss 0.9\n{line}\n"})
    assert got.healthy and got.proof.endswith(line.strip())
    assert not diagnose({"train.log": f"{line}\nKilled\n"}).healthy


@pytest.mark.parametrize(
    ("line", "level", "body"),
    [
        ("[1,0]<stderr>:[rank0]:[E321 02:07:08.4 ProcessGroupNCCL.cpp:607] boom", ERROR, "boom"),
        ("2024-05-01T10:00:00.123Z trainer-7f9c-0: FATAL: lost the node", FATAL, "lost the node"),
        ("(Worker pid=12, ip=10.0.0.1) [2024-05-01 10:00:00] WARNING: slow", NOTICE, "slow"),
        ("0: [ERROR] [launch.py:321] exits with return code = -9", ERROR, None),
        ("job-abc-worker-1 | Killed", FATAL, "Killed"),
    ],
)
def test_every_prefix_is_peeled_and_the_line_s_own_severity_read(line, level, body):
    said = read(line)
    assert said.severity == level
    assert body is None or said.body == body


def test_an_error_behind_an_unfamiliar_orchestrator_prefix_is_read():
    log = "pod-trainer-7f9c-1: step 3 loss 0.4\npod-trainer-7f9c-1: ValueError: bad shape (3, 4)\n"
    got = diagnose({"console.log": log})
    assert got.cause == "user_code_error" and "bad shape" in got.evidence.text


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ('{"error": {"code": "ServiceError", "message": "InternalServerError"}}',
         "azureml_system_error"),
        ("AzureMLCompute job failed. PreemptionError: Nodes of this job got pre-empted.",
         "node_preempted"),
        ("FailedPullingImage: Unable to pull docker image\n\terror: unauthorized: authentication "
         "required", "image_pull_failed"),
        ("CondaValueError: pip returned an error", "environment_build_failed"),
        ("AzureMLCompute job failed. BFSMountError: unable to mount blob fuse file system",
         "data_access_failed"),
        ("The specified subscription has a total vCPU quota of 0 and cannot accomodate",
         "capacity_or_quota"),
        ("NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.", "node_failure"),
        ("slurmstepd: error: *** JOB 4 ON n1 CANCELLED AT 2024-04-20T09:09:37 DUE TO TIME LIMIT",
         "job_time_limit"),
        ("OSError: [Errno 28] No space left on device", "disk_full"),
        ('"message": "User program failed with ModuleNotFoundError: No module named \'pandas\'"',
         "import_error"),
    ],
)  # fmt: skip
def test_azure_ml_s_own_failures_are_named_with_a_fix_in_its_terms(text, cause):
    got = diagnose({"azureml-logs/55_azureml-execution.txt": text + "\n"})
    assert got.cause == cause and got.failed
    assert got.title and got.title != cause  # a human title, never the bare id


def test_the_platform_s_cause_beats_what_the_processes_printed_after_it():
    log = "PreemptionError: Nodes of this job got pre-empted.\nKilled\n"
    assert diagnose({"driver.txt": log}).cause == "node_preempted"


def test_specific_before_generic_in_a_line_and_in_a_log():
    line = "RuntimeError: Timed out waiting 1800000ms for send operation: ncclSystemError"
    assert diagnose({"x.log": line + "\n"}).cause == "nccl_system_error"
    log = (
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, invalid "
        "usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\n"
        "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
        "Last error:\nDuplicate GPU detected : rank 3 and rank 1 both on CUDA device 2000\n"
    )
    got = diagnose({"console.log": log})
    assert (got.cause, got.rank) == ("world_size_mismatch", 3)
