"""Issue 36, third round: the proof a finished run's own log gives (a launcher's, a platform's or
a harness's end word; the last epoch by its own count, reported on), the C libraries' and the
shells' word that a process aborted, TensorFlow's cluster words, and exceptions behind a quote or
an indent, on small logs shaped like the dev half's."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose


@pytest.mark.parametrize(
    "end",
    [
        '{"name": "torchelastic.worker.status.SUCCEEDED", "source": "WORKER", "timestamp": 0}',
        "[2024-10-13T20:48:55.2178659Z][CONTROLLER][INFO]Changing Run Status from Running to "
        "Completed",
        "--- PASS: TestBertTraining (675.16s)",
        "=== EPOCH 199/199 ===\nLoss train: 0.074  eval: 0.098\nMean IoU train: 0.749",
    ],
)
def test_a_finished_run_s_own_end_word_proves_it_healthy(end):
    got = diagnose({"train.log": f"starting\nstep 10 loss 0.5\n{end}\n"})
    assert got.healthy, got.paragraph()
    assert got.proof.split(": ", 1)[1] in end


def test_the_last_epoch_s_header_alone_proves_nothing():
    # a run killed in its last epoch printed the header and no more
    got = diagnose({"train.log": "Epoch 4/5\nloss: 0.3\nEpoch 5/5\n"})
    assert got.verdict == "not_proven"
    assert not diagnose({"train.log": "Epoch 5/5\nloss: 0.3\nKilled\n"}).healthy


@pytest.mark.parametrize(
    "log",
    [
        "[node:01620] *** Process received signal ***\n[node:01620] Signal: Aborted (6)\n"
        "[node:01620] Signal code:  (-6)\n[node:01620] [ 0] /lib/libc.so.6(+0x43090)[0x7e]\n",
        "F0304 23:27:40.473143  4767 syncedmem.hpp:31] Check failed: error == cudaSuccess "
        "(29 vs. 0)  driver shutting down\n*** Check failure stack trace: ***\n",
        "./train.sh: line 26:  4767 Aborted                 (core dumped) python train.py 0\n",
        "[Starting training from iteration 0\n*** Error in `/env/bin/python': double free or "
        "corruption (!prev): 0x000055bbaca66830 ***\n======= Backtrace: =========\n"
        "/lib64/libc.so.6(+0x733cf)[0x7f52abbfc3cf]\n",
    ],
    ids=["open-mpi-handler", "glog-check", "bash-job", "glibc-heap"],
)
def test_a_process_the_c_library_or_the_shell_says_aborted_is_an_abort(log):
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", "abort"), got.paragraph()


def test_tensorflow_s_own_cluster_words_name_a_cluster_error():
    refused = (
        "2019-07-10 08:32:54.199474: E tensorflow/core/distributed_runtime/rpc/grpc_server_lib"
        '.cc:442] Internal: Job "trainer_client,controller" was not defined in cluster\n'
        'Traceback (most recent call last):\n  File "trainer.py", line 9, in <module>\n'
    )
    assert diagnose({"train.log": refused}).cause == "tf_cluster_error"
    # the parameter server died starting its server; its traceback (pasted as a quoted string)
    # is cut before its last line
    ps_died = (
        "INFO:tensorflow:Done running local_init_op.\n"
        "Pod: trainer-dist-gpu-ps-0 exited with code 1\n"
        '"Traceback (most recent call last):\n  File "/usr/local/bin/t2t-trainer", line 28\n'
        '    t2t_trainer.main(argv)\n  File "t2t_trainer.py", line 355, in run_std_server\n'
        "    exp.run_std_server()\n"
    )
    got = diagnose({"train.log": ps_died})
    assert (got.verdict, got.cause) == ("failed", "tf_cluster_error"), got.paragraph()


@pytest.mark.parametrize(
    "log",
    [
        '"RuntimeError: Expected to have finished reduction in the prior iteration before '
        'starting a new one."\n',
        "[1,9]<stdout>:    AttributeError: module 'smdistributed.dataparallel.tensorflow' has "
        "no attribute 'get_world_size'\n",
    ],
    ids=["quoted", "indented-last-line"],
)
def test_an_exception_behind_a_quote_or_an_indent_is_the_user_s_error(log):
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", "user_code_error"), got.paragraph()


def test_nccl_s_return_code_trace_after_a_benign_warning_is_an_nccl_failure():
    log = (
        "host:1582:1582 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>\n"
        "host:1582:1705 [0] graph/xml.cc:332 NCCL WARN Could not find real path of "
        "/sys/class/pci_bus/0000:01/../../0000:01:00.0\n"
        "host:1582:1705 [0] NCCL INFO graph/xml.cc:469 -> 2\n"
        "host:1582:1705 [0] NCCL INFO init.cc:840 -> 2\n"
    )
    got = diagnose({"train.log": log})
    assert (got.verdict, got.cause) == ("failed", "nccl_system_error"), got.paragraph()
    healthy = log.replace("-> 2", "Connected all rings")
    assert not diagnose({"train.log": healthy}).failed
