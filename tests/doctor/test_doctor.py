"""The doctor's reading rules on small logs shaped like the real ones: per-rank files, an
interleaved console, the watchdog's sequence numbers, and `dtrain-tui doctor` itself."""

from __future__ import annotations

import json
from pathlib import Path

from tui.cli.commands import main
from tui.logs.doctor import diagnose

WATCHDOG = (
    "[rank{r}]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn=4, "
    "NumelOut=4, Timeout(ms)=600000) ran for 600060 milliseconds before timing out."
)
WORK = (
    "[rank{r}]:[E321 02:07:08.465150152 ProcessGroupNCCL.cpp:1664] [PG 1 Rank {r}] Exception "
    "(either an error or timeout) detected by watchdog at work: {seq}, last enqueued NCCL work: "
    "{enq}, last completed NCCL work: {done}."
)


def rank_files(texts: dict[int, str]) -> dict[str, str]:
    return {f"user_logs/std_log_process_{r}.txt": t for r, t in texts.items()}


def test_the_rank_that_never_entered_the_collective_is_the_culprit_not_the_first_to_time_out():
    logs = rank_files(
        {r: "step 10 loss 0.5\n" + WATCHDOG.format(r=r, seq=1580) for r in (0, 1, 3)}
        | {2: "step 10 loss 0.5\nloading shard 7 …\n"}
    )
    got = diagnose(logs)
    assert (got.cause, got.rank) == ("nccl_timeout", 2)
    assert "Watchdog caught collective operation timeout" in got.evidence.text


def test_a_lagging_enqueue_count_names_the_culprit_in_one_console_log():
    lines = [WORK.format(r=r, seq=80, enq=81, done=79) for r in (0, 1, 3)]
    lines.insert(2, WORK.format(r=2, seq=80, enq=80, done=79))
    got = diagnose({"console.txt": "\n".join(lines)})
    assert (got.cause, got.rank) == ("nccl_timeout", 2)


def test_a_real_error_beats_the_timeouts_it_causes():
    logs = rank_files(
        {
            0: WATCHDOG.format(r=0, seq=9),
            1: 'Traceback (most recent call last):\n  File "train.py", line 3\n'
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
            2: WATCHDOG.format(r=2, seq=9),
        }
    )
    got = diagnose(logs)
    assert (got.cause, got.rank) == ("cuda_oom", 1)
    assert got.evidence.log == "user_logs/std_log_process_1.txt" and got.evidence.line == 3
    assert {(o.cause, o.rank) for o in got.others} == {("nccl_timeout", 0), ("nccl_timeout", 2)}


def test_prefixes_of_torchrun_mpirun_and_srun_name_the_rank():
    for line in (
        "[default3]:ModuleNotFoundError: No module named 'flash_attn'",
        "[1,3]<stderr>:ModuleNotFoundError: No module named 'flash_attn'",
    ):
        assert diagnose({"console.log": f"hello\n{line}\n"}).rank == 3
    srun = "0: step 1\n1: step 1\n3: step 1\n3: ModuleNotFoundError: No module named 'x'\n"
    assert diagnose({"console.log": srun}).rank == 3


def test_a_user_exception_is_user_code_and_the_earliest_timestamp_wins():
    logs = rank_files(
        {
            0: "2024-05-01 10:00:09,000 Traceback (most recent call last):\nKeyError: 'labels'\n",
            1: "2024-05-01 10:00:02,000 Traceback (most recent call last):\n"
            "2024-05-01 10:00:02,001 ValueError: expected 3 channels, got 4\n",
        }
    )
    got = diagnose(logs)
    assert (got.cause, got.rank) == ("user_code_error", 1)
    assert "ValueError" in got.evidence.text


def test_a_job_with_nothing_recognisable_is_healthy_only_when_its_backend_says_exit_0():
    logs = rank_files({0: "step 1\nstep 2\n"})
    got = diagnose(logs)
    assert (got.verdict, got.cause) == ("not_proven", "not_proven") and not got.healthy
    assert got.one_line() == "no failure found, not proven healthy"
    got = diagnose(logs, failed=True)
    assert got.cause == "unknown_failure" and got.evidence.text == "step 2"
    got = diagnose(logs, succeeded=True)
    assert got.healthy and "exit status 0" in got.proof


def test_cli_prints_exactly_the_json_shape_and_exits_1(tmp_path: Path, capsys):
    folder = tmp_path / "job" / "user_logs"
    folder.mkdir(parents=True)
    (folder / "std_log_process_0.txt").write_text("ok\n")
    (folder / "std_log_process_1.txt").write_text("\x1b[31mKilled\x1b[0m\n")
    assert main(["doctor", str(tmp_path / "job"), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert list(out) == [
        "verdict", "cause", "title", "rank", "culprit", "confidence", "evidence", "lines", "fix",
        "others", "proof", "severe", "network"
    ]  # fmt: skip
    assert (out["verdict"], out["title"]) == ("failed", "Killed: host out of memory")
    assert out["network"]["nccl_info_seen"] is False  # no NCCL lines: nothing said (issue 29)
    assert (out["cause"], out["rank"], out["culprit"]) == ("host_oom_killed", 1, "rank 1")
    assert out["confidence"] == "high"
    assert out["evidence"] == ["user_logs/std_log_process_1.txt:1"]
    assert out["lines"] == [
        {"at": "user_logs/std_log_process_1.txt:1", "log": "user_logs/std_log_process_1.txt",
         "line": 1, "text": "Killed"}
    ]  # fmt: skip
    assert "memory" in out["fix"]


def test_cli_healthy_is_0_not_proven_3_and_bad_input_is_2_with_one_line(tmp_path: Path, capsys):
    log = tmp_path / "train.log"
    log.write_text("UserWarning: Failed to initialize NumPy\nepoch 1 loss 0.3\n")
    assert main(["doctor", str(log)]) == 3  # nothing wrong seen, but nothing shows its end
    assert "No failure found, not proven healthy" in capsys.readouterr().out
    assert main(["doctor", str(log), "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert (out["verdict"], out["cause"], out["proof"]) == ("not_proven", "not_proven", None)
    log.write_text(log.read_text() + "Process finished with exit code 0\n")
    assert main(["doctor", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["verdict"], out["cause"]) == ("healthy", "none")
    assert out["proof"] == "train.log:3: Process finished with exit code 0"
    assert main(["doctor", str(tmp_path / "missing.log")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


AGENT_FAILED = (
    "E1106 04:43:02.651000 26021 site-packages/torch/distributed/elastic/multiprocessing/api.py:"
    "869] failed (exitcode: {code}) local_rank: {r} (pid: 2602{r}) of binary: /usr/bin/python"
)


def test_sigill_and_sigabrt_from_torchrun_are_causes_with_fixes():
    ill = diagnose({"driver.log": "step 1\n" + AGENT_FAILED.format(code=-4, r=1)})
    assert (ill.cause, ill.rank) == ("illegal_instruction", 1)
    assert "AVX-512" in ill.fix and "SIGILL" in ill.paragraph()
    abort = diagnose({"driver.log": "step 1\n" + AGENT_FAILED.format(code=-6, r=3)})
    assert (abort.cause, abort.rank) == ("abort", 3)
    assert "NCCL" in abort.fix and "terminate called" in abort.fix


def test_an_abort_that_ends_an_nccl_error_is_diagnosed_as_the_nccl_error():
    logs = rank_files(
        {
            0: "step 1\n",
            1: "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1331, "
            "unhandled cuda error\nterminate called after throwing an instance of "
            "'c10::DistBackendError'\nAborted (core dumped)\n",
        }
    )
    got = diagnose({**logs, "driver.log": AGENT_FAILED.format(code=-6, r=1)})
    assert (got.cause, got.rank) == ("nccl_system_error", 1)


def test_a_tensorflow_culprit_is_named_as_its_task():
    logs = {
        "user_logs/std_log_node_00_worker.txt": "epoch 1\n",
        "user_logs/std_log_node_01_worker.txt": "epoch 1\nIllegal instruction (core dumped)\n",
        "user_logs/std_log_node_00_ps.txt": "serving\n",
    }
    got = diagnose(logs)
    assert (got.cause, got.rank, got.culprit) == ("illegal_instruction", 1, "worker 1")
    assert got.paragraph().startswith("Worker 1 failed first")
    ps = diagnose(
        logs
        | {
            "user_logs/std_log_node_01_worker.txt": "epoch 1\n",
            "user_logs/std_log_node_00_ps.txt": "Segmentation fault\n",
        }
    )
    assert ps.culprit == "ps 0" and "rank" not in ps.paragraph().split("\n")[0]


def test_the_doctor_loads_no_ui_and_no_azure_sdk():
    import subprocess
    import sys

    code = (
        "import sys, tui.logs.doctor, tui.logs.evidence, tui.logs.signatures\n"
        "print([m for m in sys.modules if m.startswith(('textual', 'azure', 'rich'))])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
