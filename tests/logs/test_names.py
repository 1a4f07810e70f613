"""Log names → ranks: numbers parsed, never compared as strings."""

from __future__ import annotations

from tui.logs.names import default_log, label, log_for_rank, ordered, rank_logs


def test_process_logs_sort_by_number_padded_or_not():
    names = [
        "system_logs/lifecycler/lifecycler.log",
        "user_logs/std_log_process_10.txt",
        "user_logs/std_log_process_9.txt",
        "user_logs/std_log_process_0.txt",
    ]
    assert [r.rank for r in rank_logs(names)] == [0, 9, 10]
    padded = [f"user_logs/std_log_process_{i:02d}.txt" for i in (11, 2, 0, 1)]
    assert [r.name for r in rank_logs(padded)] == [
        "user_logs/std_log_process_00.txt",
        "user_logs/std_log_process_01.txt",
        "user_logs/std_log_process_02.txt",
        "user_logs/std_log_process_11.txt",
    ]
    assert log_for_rank(padded, 2) == "user_logs/std_log_process_02.txt"
    assert log_for_rank(padded, 3) is None
    assert default_log(padded) == "user_logs/std_log_process_00.txt"
    assert ordered(names)[-1] == "system_logs/lifecycler/lifecycler.log"


def test_tensorflow_task_logs_are_numbered_workers_then_parameter_servers():
    names = [
        "user_logs/std_log_node_01_ps.txt",
        "user_logs/std_log_node_01_worker.txt",
        "user_logs/std_log_node_00_ps.txt",
        "user_logs/std_log_node_00_worker.txt",
    ]
    ranks = rank_logs(names)
    assert [(r.rank, r.label) for r in ranks] == [
        (0, "worker 0"),
        (1, "worker 1"),
        (2, "ps 0"),
        (3, "ps 1"),
    ]
    assert default_log(names) == "user_logs/std_log_node_00_worker.txt"
    assert label("user_logs/std_log_node_00_ps.txt", ranks) == "ps 0"
    assert label("system_logs/x.log", ranks) == "system_logs/x.log"


def test_single_process_and_retries():
    assert default_log(["user_logs/std_log.txt", "system_logs/a.log"]) == "user_logs/std_log.txt"
    retried = [
        "user_logs/std_log_process_0.txt",
        "user_logs/retry_001/std_log_process_0.txt",
        "user_logs/retry_001/std_log_process_1.txt",
    ]
    assert [r.name for r in rank_logs(retried)] == retried[1:]
    assert rank_logs([]) == [] and default_log(["system_logs/a.log"]) is None
