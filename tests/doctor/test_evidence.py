"""What a user sees the doctor get right on the shapes issue 23 lists: every common rank prefix,
ranks named by the failure itself, launcher banners, and failures that are never "healthy"."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose

ERROR = "ModuleNotFoundError: No module named 'flash_attn'"


@pytest.mark.parametrize(
    "line",
    [
        f"[rank5]: {ERROR}",
        f"[default5]:{ERROR}",
        f"[1,5]<stderr>:{ERROR}",
        f"[5]<stderr>:{ERROR}",
        f"i.pretrain/0 [default5]:[rank5]: {ERROR}",
        f"2024-05-01 10:00:02,001 [rank5]: {ERROR}",
    ],
)
def test_every_common_rank_prefix_names_the_culprit(line):
    got = diagnose({"console.log": f"step 1\n{line}\n"})
    assert (got.cause, got.rank) == ("import_error", 5)


def test_an_nccl_line_names_its_rank_and_a_warn_chain_is_an_nccl_failure():
    log = (
        "node1:812:901 [3] NCCL INFO Using network Socket\n"
        "node1:812:901 [3] include/socket.h:398 NCCL WARN Call to write failed : Connection "
        "reset by peer\n"
        "node1:812:901 [3] transport.cu:153 NCCL WARN transport.cu:153 ->2 [Proxy thread error]\n"
    )
    got = diagnose({"console.log": log})
    assert (got.cause, got.rank) == ("nccl_system_error", 3)


def test_nccl_s_own_rank_line_maps_a_gpu_index_to_the_global_rank():
    log = (
        "node2:924:924 [5] NCCL INFO comm 0x5555d810f00 rank 13 nranks 16 cudaDev 5 - Init "
        "COMPLETE\n"
        "node2:924:990 [5] transport/net.cc:1302 NCCL WARN NET/IB : Got completion from peer "
        "10.0.0.9<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n"
    )
    got = diagnose({"console.log": log})
    assert (got.cause, got.rank) == ("nccl_system_error", 13)


def test_nccl_falling_back_from_libibverbs_is_noise():
    log = (
        "node1:812:812 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
        "node1:812:812 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.4<0>\n"
        "epoch 1 step 100 loss 0.31\n"
        "epoch 1 step 110 loss 0.30\n"
    )
    assert not diagnose({"console.log": log}).failed  # a finished log: no proof of its end
    assert diagnose({"console.log": log}, running=True).healthy  # running: steps advance


def test_a_ray_actor_prefix_is_read_past():
    log = "(RayTrainWorker pid=4211, ip=10.0.0.5) ValueError: labels has 10 classes, expected 9\n"
    got = diagnose({"driver.log": log})
    assert got.cause == "user_code_error" and "labels has 10 classes" in got.evidence.text


def test_the_failure_table_and_a_killed_exit_name_the_rank():
    table = (
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-03-05_07:01:51\n"
        "  host      : node-1\n  rank      : 2 (local_rank: 2)\n  exitcode  : -9 (pid: 69811)\n"
        "  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 69811\n"
    )
    got = diagnose({"console.log": "step 9\n" + table})
    assert (got.cause, got.rank) == ("host_oom_killed", 2)


@pytest.mark.parametrize(
    ("banner", "cause", "rank"),
    [
        (
            "mpirun noticed that process rank 5 with PID 0 on node n2 exited on signal 9 (Killed).",
            "host_oom_killed",
            5,
        ),
        (
            "mpiexec noticed that process rank 0 with PID 10313 on node proton exited on \n"
            "signal 6 (Aborted).",
            "abort",
            0,
        ),
        (
            "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with "
            "signal SIGKILL",
            "host_oom_killed",
            3,
        ),
        (
            "ORTE has lost communication with a remote daemon.\n\n  HNP daemon   : [[64112,0],0]",
            "mpi_error",
            None,
        ),
    ],
)
def test_launcher_banners_say_who_died_and_how(banner, cause, rank):
    got = diagnose({"console.log": f"step 1\n{banner}\n"})
    assert (got.cause, got.rank) == (cause, rank)


def test_a_waiter_that_names_the_rank_it_waited_for_blames_that_rank():
    line = (
        "[rank2]: RuntimeError: Rank 2 successfully reached monitoredBarrier, but received errors "
        "while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank."
    )
    got = diagnose({"console.log": line})
    assert (got.cause, got.rank) == ("nccl_timeout", 0)


def test_a_task_waiting_for_another_names_the_task_it_waits_for():
    line = (
        "2018-03-02 08:50:57.918293: I tensorflow/core/distributed_runtime/master.cc:221] "
        "CreateSession still waiting for response from worker: /job:ps/replica:0/task:0"
    )
    got = diagnose({"worker.log": "\n".join([line] * 3)})
    assert (got.cause, got.culprit) == ("tf_cluster_error", "ps 0")


@pytest.mark.parametrize(
    "log",
    [
        "step 1\nE1106 04:43:02 api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 26) of "
        "binary: /usr/bin/python\n",
        "step 1\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n",
        "step 1\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
        "    main()\n",
        "connecting\nCall to connect returned Connection refused, retrying\n"
        "Call to connect returned Connection refused, retrying\n"
        "Call to connect returned Connection refused, retrying\n",
        "step 1\nW0219 09:17:03.837000 140 api.py:858] Sending process 2448006 closing signal "
        "SIGTERM\n",
        "step 1\nProcess finished with exit code 139 (interrupted by signal 11: SIGSEGV)\n",
    ],
    ids=["non-zero exit", "launcher exception", "cut-off traceback", "retry loop", "SIGTERM",
         "exit 139"],
)  # fmt: skip
def test_a_failure_without_a_known_cause_is_never_healthy(log):
    got = diagnose({"console.log": log})
    assert not got.healthy and got.evidence is not None


def test_a_specific_cause_beats_the_exception_that_reports_it():
    log = (
        'Traceback (most recent call last):\n  File "store.py", line 155, in _create_tcp_store\n'
        "RuntimeError: connect() timed out. Original timeout was 60000 ms.\n"
    )
    assert diagnose({"node1.log": log}).cause == "rendezvous_timeout"
    assert diagnose({"x.log": "AssertionError: 96 is not divisible by 64\n"}).cause == (
        "world_size_mismatch"
    )
    argparse = "usage: train.py [-h]\ntrain.py: error: unrecognized arguments: --local-rank=0\n"
    assert diagnose({"x.log": argparse}).cause == "script_arguments"


def test_a_plotting_server_refusing_while_training_goes_on_is_noise():
    log = (
        "Traceback (most recent call last):\n"
        '  File "site-packages/urllib3/connection.py", line 157, in _new_conn\n'
        "ConnectionRefusedError: [Errno 111] Connection refused\n"
        "epoch 1 step 10 loss 0.52\n"
        "epoch 1 step 20 loss 0.49\n"
    )
    assert diagnose({"train.log": log}, running=True).healthy
    fatal = log.split("epoch")[0]  # the same error, and the log ends there
    assert diagnose({"train.log": fatal}, running=True).failed


def test_a_fix_for_a_local_job_does_not_tell_it_to_rehearse_locally():
    log = {"x.log": "Traceback (most recent call last):\nValueError: bad batch\n"}
    assert "--target local" in diagnose(log).fix
    assert "--target local" not in diagnose(log, local=True).fix
