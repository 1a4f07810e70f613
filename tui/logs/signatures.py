"""Log lines that belong to one framework, as data: which cause each names, how much it weighs.

The doctor's own rules (`doctor_rules`) know Python, the operating system, NCCL, MPI and the
collective library every PyTorch-based stack shares; what only one framework prints lives here,
one record per signature, so it can move into that framework's module (`tui/frameworks/`) as
its `log_signatures` without touching the doctor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui.logs.causes import ECHO, FAILURE, ROOT


@dataclass(frozen=True)
class Signature:
    """A line one framework prints: the cause it names and the tier it weighs (`causes`)."""

    framework: str
    cause: str
    tier: int
    pattern: re.Pattern[str]
    hint: str
    """A word every matching line holds (the doctor skips lines without any rule's words)."""


def _sig(framework: str, cause: str, tier: int, pattern: str, hint: str) -> Signature:
    return Signature(framework, cause, tier, re.compile(pattern), hint)


_TF = "tensorflow"
SIGNATURES: tuple[Signature, ...] = (
    # TensorFlow's gRPC cluster: a task that cannot reach, or waits forever for, another task.
    _sig(_TF, "tf_cluster_error", ROOT, r"TF_CONFIG", "TF_CONFIG"),
    _sig(_TF, "tf_cluster_error", ROOT, r"Task .* not found in cluster", "cluster"),
    _sig(_TF, "tf_cluster_error", ROOT, r"not in the cluster", "cluster"),
    _sig(_TF, "tf_cluster_error", ROOT, r"(?i:unable to find (?:the )?(?:task|worker))", "nable"),
    _sig(_TF, "tf_cluster_error", ROOT, r"InvalidArgumentError: .*(?:cluster|task)", "Invalid"),
    _sig(_TF, "tf_cluster_error", ECHO, r"CreateSession still waiting for", "CreateSession"),
    _sig(_TF, "tf_cluster_error", ECHO, r"Collective ops is aborted by", "Collective ops"),
    _sig(_TF, "tf_cluster_error", ECHO, r"CancelledError: .*[Cc]ollective", "CancelledError"),
    _sig(_TF, "tf_cluster_error", ECHO, r"UnavailableError|DeadlineExceededError", "Error"),
    _sig(_TF, "tf_cluster_error", ECHO, r"failed to connect to all addresses", "all addresses"),
    _sig(_TF, "tf_cluster_error", ECHO, r"Socket closed", "Socket closed"),
    _sig(_TF, "tf_cluster_error", ECHO, r"Failed to connect to remote host", "remote host"),
    _sig(_TF, "tf_cluster_error", ECHO, r"Connection reset by peer.*grpc|grpc.*reset", "grpc"),
    _sig(_TF, "tf_cluster_error", ECHO, r"coordination service", "coordination"),
    # Horovod over MPI.
    _sig("horovod", "mpi_error", ROOT, r"horovodrun: error|HorovodInternalError", "orovod"),
    _sig("horovod", "mpi_error", ECHO, r"Horovod has been shut down", "Horovod"),
    # Ray: a worker process died and Ray does not know why.
    _sig("ray", "unknown_failure", FAILURE, r"A worker died or was killed while", "worker died"),
    _sig("ray", "unknown_failure", FAILURE, r"The actor (?:is dead|died unexpectedly)", "actor"),
)
"""Checked after the doctor's own rules, before a traceback's last line is read as user code."""
