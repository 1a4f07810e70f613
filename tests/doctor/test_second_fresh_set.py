"""Issue 36, fifth round (the spent fresh set 2026-11-27b, folded into the dev half): a CUDA
device-side assert is the script's data, a log cut inside a traceback is the script's exception,
a network fault raised inside the rendezvous is the rendezvous, a rank named beside the evidence,
a checkpoint written short is a full disk, a file the script expected and did not find, a peer's
shutdown echoed, Azure ML's refusal of a job at submission and its registry lines, and MLPerf's
older end line; on small logs shaped like the dev half's."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose

_KERNEL_ASSERT = (
    "../aten/src/ATen/native/cuda/Loss.cu:257: nll_loss_forward_reduce_cuda_kernel_2d: block: "
    "[0,0,0], thread: [{t},0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
)


@pytest.mark.parametrize(
    "tail",
    [
        "",  # the paste stops on the kernel's assertions
        "terminate called after throwing an instance of 'c10::CUDAError'\n"
        "  what():  CUDA error: device-side assert triggered\n",
        "RuntimeError: CUDA error: device-side assert triggered\n",
    ],
    ids=["assertions-only", "terminate", "runtime-error"],
)
def test_a_cuda_device_side_assert_is_the_scripts_data_not_a_native_abort(tail):
    log = "Epoch 1/5:   0%|          | 0/123\n" + _KERNEL_ASSERT.format(t=4) * 3 + tail
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", "user_code_error"), got.paragraph()
    assert "n_classes" in got.fix and "CUDA_LAUNCH_BLOCKING=1" in got.fix


def test_a_log_cut_inside_a_traceback_is_the_scripts_exception():
    log = (
        "Processing MRPC...\nTraceback (most recent call last):\n"
        '  File "download_glue_data.py", line 61, in format_mrpc\n'
        "    urllib.request.urlretrieve(MRPC_TRAIN, mrpc_train_file)\n"
        '  File "/azureml-envs/x/lib/python3.6/urllib/request.py", line 223, in urlopen\n'
        "    return opener.open(url, data, timeout)\n"
    )
    got = diagnose({"70_driver_log.txt": log})
    assert (got.verdict, got.cause) == ("failed", "user_code_error"), got.paragraph()


def test_a_network_fault_raised_inside_the_rendezvous_is_the_rendezvous():
    log = (
        "Traceback (most recent call last):\n"
        '  File "/x/torch/distributed/rendezvous.py", line 143, in _env_rendezvous_handler\n'
        "    store = TCPStore(master_addr, master_port, world_size, start_daemon)\n"
        "RuntimeError: Connection timed out\n"
    )
    assert diagnose({"train.log": log}).cause == "rendezvous_timeout"
    # the same fault raised in the script's own code (a metrics client) stays the script's
    own = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 88, in report\n'
        "    requests.post(tracker_url, json=metrics)\n"
        "RuntimeError: Connection timed out\n"
    )
    assert diagnose({"train.log": own}).cause == "user_code_error"


def test_the_rank_another_line_of_the_same_failure_names_is_the_culprit():
    log = (
        "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
        "[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: "
        "CUDA error: uncorrectable ECC error encountered\n"
    )
    got = diagnose({"train.log": log})
    assert (got.cause, got.rank) == ("node_failure", 1), got.paragraph()


def test_a_checkpoint_written_short_is_a_full_disk():
    log = (
        "Traceback (most recent call last):\n"
        '  File "/x/torch/serialization.py", line 259, in __exit__\n'
        "    self.file_like.write_end_of_file()\n"
        "RuntimeError: [enforce fail at inline_container.cc:274] . unexpected pos 203894208 vs "
        "203894096\n"
    )
    got = diagnose({"train.log": log})
    assert got.cause == "disk_full" and "unexpected pos" in got.fix


def test_a_failed_log_stopping_on_a_missing_file_is_the_scripts_path():
    line = (
        "Could not locate the provided model_path outputs/network.pth in the set of files "
        "uploaded to the run: ['azureml-logs/70_driver_log.txt', 'logs/azureml/8_azureml.log']"
    )
    got = diagnose({"driver.log": line + "\n"})
    assert (got.verdict, got.cause) == ("failed", "user_code_error"), got.paragraph()


def test_a_shutdown_caused_by_another_ranks_exception_names_no_cause_of_its_own():
    log = (
        "tensorflow.python.framework.errors_impl.UnknownError: Horovod has been shut down. This "
        "was caused by an exception on one of the ranks or an attempt to allreduce, allgather or "
        "broadcast a tensor after one of the ranks finished execution.\n"
    )
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", "unknown_failure"), got.paragraph()


@pytest.mark.parametrize(
    "log",
    [
        "AzureML tests are failing due to:\n"
        "   Your total snapshot size exceeds the limit of 300.0 MB.\n"
        "   Please see http://aka.ms/aml-largefiles on how to work with large files\n",
        "$ az ml job create --file job.yml\nERROR: Met error <class 'marshmallow.exceptions."
        "ValidationError'>:Validation for PipelineJobSchema failed:\n",
    ],
    ids=["snapshot-over-limit", "job-yaml-schema"],
)
def test_a_job_azure_ml_refused_at_submission_is_said_so_with_the_fix(log):
    got = diagnose({"submit.log": log})
    assert (got.verdict, got.cause) == ("failed", "job_rejected"), got.paragraph()
    assert got.title == "Job refused at submission" and ".amlignore" in got.fix


def test_a_registry_azure_ml_cannot_reach_is_an_image_pull_failure():
    line = (
        "Error occurred: Unable to get image details : Unable to fetch workspace resources: The "
        "Resource 'Microsoft.ContainerRegistry/registries/14f3d1f5e2' under resource group 'rg' "
        "was not found."
    )
    assert diagnose({"driver.log": line + "\n"}).cause == "image_pull_failed"


def test_mlperfs_older_end_line_proves_the_run_healthy():
    log = (
        ':::MLL 1560722749.842 run_stop: {"value": null, "metadata": {"status": "success", '
        '"file": "common/fit.py", "lineno": 491}}\n'
        'WARNING: Log validation: Key "run_final" is not in known resnet keys.\n'
        "1560722755.573223896 #finished at Mon Jun 17 07:05:55 JST 2019\n"
    )
    got = diagnose({"result_0.txt": log})
    assert got.healthy and "run_stop" in got.proof
    failed = log.replace('"success"', '"aborted"')
    assert not diagnose({"result_0.txt": failed}).healthy
