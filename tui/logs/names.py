"""Which log is whose: Azure ML's log names, parsed as numbers and never compared as strings.

A distributed job writes one log per process, `user_logs/std_log_process_<rank>.txt`, where the
rank may be zero-padded (`_00`, `_01`, … on some jobs; the padding rule is not documented), so
`_10` must sort after `_9`. Jobs whose processes are tasks write one per task,
`std_log_node_<nn>_<role>.txt` (workers, then parameter servers, as the plan numbers them); a
single process writes `std_log.txt`. Everything else (`system_logs/…`, `mpi_log.txt`) is listed
after the ranks.

Jobs on the older runtime log to `azureml-logs/` instead: `70_driver_log_<rank>.txt` per process,
`70_driver_log-worker-<n>.txt` per worker, `70_driver_log.txt` for a single process (azure-ai-ml's
`JobLogPattern.COMMAND_JOB_LOG_PATTERN` and its unit tests' log listings). They map to ranks the
same way; a job that has both kinds is taken by its common-runtime names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_PROCESS = re.compile(r"(?:^|/)std_log_process_(\d+)\.txt\Z")
_TASK = re.compile(r"(?:^|/)std_log_node_(\d+)_([a-z]+)\.txt\Z")
_SINGLE = re.compile(r"(?:^|/)std_log\.txt\Z")
_DRIVER = re.compile(r"(?:^|/)70_driver_log_(\d+)\.txt\Z")
_DRIVER_WORKER = re.compile(r"(?:^|/)70_driver_log-worker-(\d+)\.txt\Z")
_DRIVER_SINGLE = re.compile(r"(?:^|/)70_driver_log\.txt\Z")
_RETRY = re.compile(r"(?:^|/)retry_(\d+)/")
_ROLE_ORDER = {"chief": 0, "worker": 1, "ps": 2, "evaluator": 3}


@dataclass(frozen=True)
class RankLog:
    """One rank's log: its rank (the plan's numbering) and how to call it."""

    rank: int
    name: str
    label: str
    """`rank 3`, `worker 1`, `ps 0`: what the job screen shows."""


def rank_logs(names: Iterable[str]) -> list[RankLog]:
    """The rank logs among `names`, in rank order.

    Per-process logs take their rank from the number in the name; task logs are
    numbered in the plan's order (chief, workers, parameter servers, evaluator, each by index);
    a lone `std_log.txt` is rank 0; the older runtime's driver logs follow the same rules. When
    an attempt was retried (`user_logs/retry_NNN/…`), only the newest attempt's logs count.
    """
    names = list(names)
    if not names:
        return []
    newest = max(_retry(n) for n in names)
    current = [n for n in names if _retry(n) == newest]
    process = sorted((int(m.group(1)), n) for n in current if (m := _PROCESS.search(n)) is not None)
    if process:
        return [RankLog(rank, n, f"rank {rank}") for rank, n in process]
    tasks = sorted(
        (_ROLE_ORDER.get(m.group(2), len(_ROLE_ORDER)), m.group(2), int(m.group(1)), n)
        for n in current
        if (m := _TASK.search(n)) is not None
    )
    if tasks:
        return [
            RankLog(rank, n, f"{role} {index}") for rank, (_, role, index, n) in enumerate(tasks)
        ]
    single = [n for n in current if _SINGLE.search(n)]
    if single:
        return [RankLog(0, single[0], "rank 0")]
    return _driver_logs(current)


def _driver_logs(names: list[str]) -> list[RankLog]:
    """The older runtime's `azureml-logs/70_driver_log…` names as ranks (or workers)."""
    process = sorted((int(m.group(1)), n) for n in names if (m := _DRIVER.search(n)) is not None)
    if process:
        return [RankLog(rank, n, f"rank {rank}") for rank, n in process]
    workers = sorted(
        (int(m.group(1)), n) for n in names if (m := _DRIVER_WORKER.search(n)) is not None
    )
    if workers:
        return [RankLog(rank, n, f"worker {index}") for rank, (index, n) in enumerate(workers)]
    single = [n for n in names if _DRIVER_SINGLE.search(n)]
    return [RankLog(0, single[0], "rank 0")] if single else []


def log_for_rank(names: Iterable[str], rank: int) -> str | None:
    """The name of rank `rank`'s log, or None when the job has no such rank (yet)."""
    return next((r.name for r in rank_logs(names) if r.rank == rank), None)


def default_log(names: Iterable[str]) -> str | None:
    """What to show first: rank 0's log, else the lowest rank's, else None."""
    ranks = rank_logs(names)
    return ranks[0].name if ranks else None


def label(name: str, ranks: Iterable[RankLog] = ()) -> str:
    """`rank 3` for a rank log (given the job's rank logs), else the name itself."""
    return next((r.label for r in ranks if r.name == name), name)


def ordered(names: Iterable[str]) -> list[str]:
    """Every name: the rank logs in rank order first, then the others as given."""
    names = list(names)
    ranks = [r.name for r in rank_logs(names)]
    seen = set(ranks)
    return ranks + [n for n in names if n not in seen]


def _retry(name: str) -> int:
    m = _RETRY.search(name)
    return int(m.group(1)) if m else -1
