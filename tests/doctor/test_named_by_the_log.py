"""Issue 36, fourth round (the spent fresh set of 2026-11-27, folded into the dev half): a
process's end by a signal in any tool's words, Windows' access violation, world-size evidence
between parallel sizes, a failure whose cause only a warning or a subsystem's error line names,
the scheduler's and Azure ML's own words, and the end words of a finished run, on small logs
shaped like the dev half's."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose
from tui.logs.severity import ERROR, FATAL, NONE, NOTICE, read


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        ("python:699378 terminated with signal 6 at PC=7f8740a96a7c SP=7ffe9c925f50.", "abort"),
        ("worker 3 was killed by signal 11", "segfault"),
        ("trainer (pid 4242) crashed with signal 4", "illegal_instruction"),
    ],
)
def test_a_process_ended_by_a_signal_is_named_by_its_signal(line, cause):
    got = diagnose({"train.log": f"step 1 loss 0.5\nYour job will now abort.\n{line}\n"})
    assert (got.verdict, got.cause) == ("failed", cause), got.paragraph()


def test_windows_access_violation_is_a_native_crash_on_the_rank_ms_mpi_names():
    log = (
        "Finished Epoch[ 1 of 20]: [Training] cr = 0.40189179\n"
        "CNTK: Caught Win32 exception 0xc0000005: Access violation.\n"
        "job aborted:\n[ranks] message\n[0] terminated\n"
        "[1] process exited without calling finalize\n"
    )
    got = diagnose({"train.log": log})
    assert (got.cause, got.rank) == ("segfault", 1), got.paragraph()
    assert "Access violation" in got.evidence.text
    assert got.evidence not in [f.evidence for f in got.others]  # not listed twice


def test_srun_names_the_task_that_crashed():
    got = diagnose({"job.out": "srun: error: node12: task 3: Segmentation fault (core dumped)\n"})
    assert (got.cause, got.rank) == ("segfault", 3)


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: world_size (8) is not equal to tensor_model_parallel_size (1) x "
        "pipeline_model_parallel_size (1).",
        "15: [rank15]: AssertionError: num_layers should be divisible by "
        "pipeline_model_parallel_size",
        "AssertionError: Check batch related parameters. train_batch_size is not equal to "
        "micro_batch_per_gpu * gradient_acc_step * world_size 16 != 4 * 1 * 8",
        "RuntimeError: CUDA error: invalid device ordinal",
    ],
    ids=["world-against-parallel", "layers-against-pipeline", "batch-against-world", "ordinal"],
)
def test_parallel_sizes_that_do_not_fit_the_world_are_a_world_size_mismatch(line):
    got = diagnose({"train.log": f'Traceback (most recent call last):\n  File "t.py"\n{line}\n'})
    assert got.cause == "world_size_mismatch", got.paragraph()


def test_a_failure_takes_the_cause_a_warning_in_its_log_named():
    log = (
        "joblib/_multiprocessing_helpers.py:46: UserWarning: [Errno 28] No space left on "
        "device.  joblib will operate in serial mode\n"
        'Traceback (most recent call last):\n  File "train.py", line 372, in <module>\n'
        "    self._rlock = ctx.Lock()\n"
    )
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", "disk_full"), got.paragraph()
    # the same warning in a run that goes on and ends well is noise
    healthy = log.split("Traceback")[0] + "step 1 loss 0.5\nTraining completed.\n"
    assert diagnose({"train.log": healthy}).healthy


@pytest.mark.parametrize(
    ("log", "cause"),
    [
        (
            "2018-06-08 05:55:09.075000: E tensorflow/core/distributed_runtime/master.cc:269] "
            "Master init: Unavailable: OS Error\nTraceback (most recent call last):\n"
            '  File "train.py", line 145, in <module>\n    self.initialize(session_creator)\n',
            "tf_cluster_error",
        ),
        (
            'The value of the MCA parameter "plm_rsh_agent" was set to a path\n'
            "that could not be found:\n\n  plm_rsh_agent: ssh : rsh\n\n"
            "[718c7e141fd5:75498] [[INVALID],INVALID] FORCE-TERMINATE AT Not found:-13 - error "
            "plm_rsh_component.c(327)\n[718c7e141fd5:75498] *** Process received signal ***\n",
            "mpi_error",
        ),
    ],
    ids=["tensorflow-runtime", "open-mpi-component"],
)
def test_a_failure_no_rule_names_takes_its_error_line_s_subsystem(log, cause):
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", cause), got.paragraph()


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        ("slurmstepd: error: execve(): /tmp/slurmd/job00089/slurm_script: No such file or "
         "directory", "node_failure"),
        ("slurmstepd: error: *** JOB 12 ON n3 CANCELLED AT 2024-01-01T00:00:00 DUE TO NODE "
         "FAILURE ***", "node_failure"),
        ("slurmd: error: Node gpu-12 is down, job 4711 requeued", "node_failure"),
        ("Error: Non terminal exception retries exhausted. TotalRetriesAttempted: 90",
         "azureml_system_error"),
    ],
)  # fmt: skip
def test_the_scheduler_s_and_the_platform_s_own_words_name_their_failure(line, cause):
    got = diagnose({"job.log": f"{line}\n"})
    assert (got.verdict, got.cause) == ("failed", cause), got.paragraph()


def test_nccl_s_failed_or_timed_out_is_a_timeout_only_with_the_watchdog_s_word():
    alone = (
        "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the "
        "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted"
        "/incomplete data.\n"
        "[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire "
        "process down.\n"
    )
    assert diagnose({"train.log": alone}).cause == "nccl_system_error"
    watchdog = (
        "[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=7487, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800123 "
        "milliseconds before timing out.\n"
    )
    assert diagnose({"train.log": watchdog + alone}).cause == "nccl_timeout"


@pytest.mark.parametrize(
    "end",
    [
        # TensorFlow's tear-down warning after the last epoch, reported on (glog with a path)
        "Epoch 10/10\n70/70 [==============================] - 7s 99ms/step - loss: 0.0863\n"
        "2020-06-08 05:30:15.889706: W tensorflow/core/kernels/data/generator_dataset_op.cc:103]"
        " Error occurred when finalizing GeneratorDataset iterator: Cancelled: Operation was "
        "cancelled",
        "2022-09-21 13:21:05,188 sagemaker-training-toolkit INFO     Reporting training SUCCESS",
        '0: :::MLLOG {"namespace": "", "event_type": "INTERVAL_END", "key": "run_stop", '
        '"value": null, "metadata": {"file": "run_pretraining.py", "status": "success"}}',
        "Max accuracy: 71.95%\nTraining time 1 day, 15:01:41",
    ],
    ids=["tf-teardown-warning", "sagemaker", "mlperf", "days"],
)
def test_a_finished_run_s_end_word_proves_it_healthy(end):
    got = diagnose({"train.log": f"starting\nstep 10 loss 0.5\n{end}\n"})
    assert got.healthy, got.paragraph()


def test_an_error_after_the_end_word_is_still_a_failure():
    log = "Epoch 5/5\n10/10 - loss: 0.1\nTraining completed.\nERROR: checkpoint upload failed\n"
    assert diagnose({"train.log": log}).failed


@pytest.mark.parametrize(
    ("line", "level", "body"),
    [
        ("[2024-10-13T20:48:55.2Z][CONTROLLER][ERROR]Job failed", ERROR, "Job failed"),
        ("[2024-10-13T20:48:55.2Z][CONTROLLER][INFO]Mounting done", NONE, "Mounting done"),
        ("2024-05-01T10:00:00.1Z stderr F RuntimeError: boom", ERROR, "RuntimeError: boom"),
        ("##[warning]Retrying the download", NOTICE, "Retrying the download"),
        (
            "Apr 30 10:00:00 node1 python[1234]: ValueError: bad shape",
            ERROR,
            "ValueError: bad shape",
        ),
        (
            "Apr 30 10:00:00 node1 kernel: [12345.678] Out of memory: Killed process 1234 (python)",
            FATAL,
            "Out of memory: Killed process 1234 (python)",
        ),
    ],
    ids=["closed-tag", "closed-info", "container-runtime", "ci-command", "journald", "kernel"],
)
def test_a_level_tag_touching_the_text_and_a_runtime_s_or_a_journal_s_prefix_are_peeled(
    line, level, body
):
    said = read(line)
    assert (said.severity, said.body) == (level, body)


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        ("[2024-10-13T20:48:55.2Z][CONTROLLER][INFO]Changing Run Status from Running to Failed",
         "unknown_failure"),
        ("[08/29/2019 05:19:04 > cd1c7c: SYS ERR ] Failed to copy job files: "
         "System.IO.IOException: There is not enough space on the disk.", "disk_full"),
        ("##[error]The job running on agent Azure Pipelines 2 ran longer than the maximum time "
         "of 60 minutes.", "job_time_limit"),
    ],
    ids=["status-failed-at-info", "windows-disk", "pipeline-agent-time-limit"],
)  # fmt: skip
def test_a_platform_s_word_is_read_whatever_level_it_is_logged_at(line, cause):
    got = diagnose({"job.log": f"{line}\n"})
    assert (got.verdict, got.cause) == ("failed", cause), got.paragraph()
