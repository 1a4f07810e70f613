"""What a line of a training log says went wrong: the doctor's causes, their patterns and fixes.

Each rule maps a line (rank prefix already removed) to a cause label and a *tier*, which says how
much a line like it is worth when several ranks complain:

- `ROOT`: a failure of its own (out of memory, a missing module, a Python exception);
- `VERDICT`: a launcher's word that a process died of a signal (SIGKILL, SIGSEGV) — strong, but
  a rank's own exception printed earlier is the better evidence;
- `TIMEOUT`: a collective that timed out — usually because *another* rank never joined it;
- `ECHO`: what every surviving rank prints once a peer is gone (connection reset, communicator
  aborted, `mpirun noticed…`, a rendezvous that waits for a rank that never comes).

Warnings are never a cause: NCCL INFO/WARN chatter, `[W …]` lines, NumPy, deprecation and
OMP_NUM_THREADS notices are read past. The fixes quote the Azure ML distributed-training guide
and the frameworks' own docs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT, VERDICT, TIMEOUT, ECHO = 0, 1, 2, 3

CAUSES = (
    "nccl_timeout",
    "cuda_oom",
    "host_oom_killed",
    "rendezvous_timeout",
    "address_in_use",
    "nccl_system_error",
    "world_size_mismatch",
    "import_error",
    "user_code_error",
    "mpi_error",
    "segfault",
    "illegal_instruction",
    "abort",
    "tf_cluster_error",
    "unknown_failure",
    "none",
)


@dataclass(frozen=True)
class Rule:
    cause: str
    tier: int
    pattern: re.Pattern[str]


def _rule(cause: str, tier: int, *patterns: str) -> Rule:
    return Rule(cause, tier, re.compile("|".join(f"(?:{p})" for p in patterns)))


# Order matters: the first rule that matches a line decides (specific before general).
RULES: tuple[Rule, ...] = (
    _rule(
        "cuda_oom",
        ROOT,
        r"CUDA out of memory",
        r"(?:torch\.)?(?:cuda\.)?OutOfMemoryError",
        r"CUDA error: out of memory",
        r"CUBLAS_STATUS_ALLOC_FAILED",
        r"RESOURCE_EXHAUSTED: OOM when allocating",
        r"ResourceExhaustedError.*OOM",
        r"HIP out of memory",
        r"NCCL WARN Cuda failure 'out of memory'",
        r"CUDA_ERROR_OUT_OF_MEMORY",
    ),
    _rule(
        "host_oom_killed",
        ROOT,
        r"DataLoader worker \(pid\(?s?\)? ?[\d, ]*\)? is killed by signal: Killed",
        r"Out of memory: Kill(?:ed)? process",
        r"\boom-kill(?:er)?\b",
        r"\bOOMKilled\b",
        r"^Killed\s*$",
        r"memory cgroup out of memory",
    ),
    _rule(
        "segfault",
        ROOT,
        r"Segmentation fault",
        r"Fatal Python error: (?:Segmentation fault|Bus error)",
        r"\bBus error\b",
        r"is killed by signal: (?:Segmentation fault|Bus error)",
        r"\bSIGSEGV\b(?! handler)",
    ),
    _rule(
        "illegal_instruction",
        ROOT,
        r"Illegal instruction",
        r"illegal hardware instruction",
        r"\bSIGILL\b",
        r"invalid opcode",
    ),
    _rule(
        "address_in_use",
        ROOT,
        r"[Aa]ddress already in use",
        r"EADDRINUSE",
        r"server socket has failed to (?:listen|bind)",
        r"errno:? 98\b",
    ),
    _rule(
        "world_size_mismatch",
        ROOT,
        r"Invalid rank -?\d+, rank should be",
        r"rank should be within the (?:the )?world_size",
        r"\] rank < size\. -?\d+ vs \d+",  # gloo's check of RANK against WORLD_SIZE
        r"rank (?:should|must) be (?:in the interval|less than|smaller than)",
        r"(?i:world[ _]size (?:of .*)?(?:mismatch|does not match|doesn't match|is different))",
        r"(?i:mismatch(?:ed)? (?:in )?world[ _]size)",
        r"Duplicate GPU detected",
        r"(?i:expected world[ _]size)",
        r"RANK \d+ .* >= WORLD_SIZE",
        r"(?i:number of (?:processes|gpus|devices) .*(?:does not match|mismatch))",
    ),
    _rule(
        "import_error",
        ROOT,
        r"\bModuleNotFoundError\b",
        r"^(?:\w+\.)*ImportError\b",
        r"No module named ",
        r"cannot import name ",
        r"undefined symbol: ",
        r"cannot open shared object file",
    ),
    _rule(
        "nccl_timeout",
        TIMEOUT,
        r"Watchdog caught collective operation timeout",
        r"WorkNCCL\(SeqNum=\d+.*(?:ran for|timed? ?out)",
        r"Timeout at NCCL work",
        r"detected by watchdog at work: \d+, last enqueued",
        r"collective operation timeout",
        r"Timed out waiting \d+ ?ms for (?:recv|send) operation",
        r"failed to pass monitoredBarrier",
        r"Some NCCL operations have failed or timed out",
        r"NCCL (?:collective |operation )?timed? ?out",
        r"(?i:heartbeat monitor timed out)",
        r"Detected mismatch between collectives",
    ),
    _rule(
        "rendezvous_timeout",
        ECHO,
        r"RendezvousTimeoutError",
        r"Timed out initializing process group in store based barrier",
        r"Timed out after \d+ seconds waiting for clients",
        r"client socket has timed out after",
        r"Socket Timeout",
        r"wait timeout after \d+ ?ms, keys:",
        r"(?i:rendezvous .*timed? ?out)",
        r"DistStoreError.*[Tt]imed? ?out",
        r"RendezvousConnectionError",
        r"client socket has failed to connect to .* after",
    ),
    _rule(
        "nccl_system_error",
        ECHO,
        r"ncclRemoteError",
        r"remote process exited",
        r"NCCL communicator was aborted",
        r"ProcessGroupNCCL.* aborted",
    ),
    _rule(
        "nccl_system_error",
        ROOT,
        r"ncclSystemError",
        r"ncclInternalError",
        r"ncclUnhandledCudaError",
        r"ncclInvalidUsage",
        r"ncclInvalidArgument",
        r"NCCL error in: .*",
        r"unhandled (?:system|cuda) error",
        r"NCCL Error \d",
        r"Bootstrap : no socket interface found",
        r"(?:NCCL|ncclCommInitRank) (?:init )?failed",
    ),
    _rule(
        "tf_cluster_error",
        ECHO,
        r"Collective ops is aborted by",
        r"CancelledError: .*[Cc]ollective",
        r"Socket closed",
        r"UnavailableError",
        r"failed to connect to all addresses",
        r"Failed to connect to remote host",
        r"DeadlineExceededError",
        r"Connection reset by peer.*grpc|grpc.*Connection reset",
        r"coordination service",
    ),
    _rule(
        "tf_cluster_error",
        ROOT,
        r"TF_CONFIG",
        r"Task .* not found in cluster|not in the cluster",
        r"(?i:unable to find (?:the )?(?:task|worker|job))",
        r"InvalidArgumentError: .*(?:cluster|task)",
    ),
    _rule(
        "mpi_error",
        ROOT,
        r"There are not enough slots available",
        r"ORTE was unable to reliably start",
        r"PRTE? (?:has lost communication|was unable)",
        r"mpirun was unable to (?:launch|find|start)",
        r"orted: command not found|prted: command not found",
        r"MPI_ERR_\w+",
        r"Fatal error in (?:P?MPI_\w+|MPI)",
        r"MPI_Init(?:_thread)? failed|PMIx? ?\w* (?:error|failed)",
        r"horovodrun: error",
        r"HorovodInternalError",
        r"btl_tcp_endpoint.*(?:connect|failed)",
    ),
    _rule(
        "mpi_error",
        ECHO,
        r"MPI_ABORT was invoked on rank",
        r"mpirun noticed that process rank",
        r"has exited due to process rank",
        r"MPI communication peer process has unexpectedly disconnected",
        r"Primary job\s+terminated normally",
    ),
    _rule(
        "abort",
        ECHO,
        r"terminate called after throwing an instance of",
        r"terminate called without an active exception",
        r"^Aborted(?: \(core dumped\))?\s*$",
        r"Fatal Python error: Aborted",
        r"\bSIGABRT\b",
        r"Assertion `.*' failed",
    ),
    _rule(
        "unknown_failure",
        ECHO,
        r"Connection closed by peer",
        r"Connection reset by peer",
        r"Broken pipe",
        r"SignalException: Process \d+ got signal: 15",
        r"got signal: 15|closing signal SIGTERM",
    ),
)

_NOISE = re.compile(
    r"NCCL INFO|NCCL WARN|^\[?W(?:\d{4})? |^\[W |Warning:|WARNING|warnings\.warn|\bwarn\(|"
    r"Failed to initialize NumPy|DeprecationWarning|FutureWarning|UserWarning|"
    r"OMP_NUM_THREADS|^\s*(?:File \"|frame #|\^)|TORCH_NCCL_|NCCL_ASYNC_ERROR_HANDLING|"
    r"To enable traceback see|To execute this test|TORCH_DISTRIBUTED_DEBUG|"
    r"^\s*(?:\d+%\|| *\|)|"
    r"^\s*(?:#|>>>|\$ )"
)
"""Lines that describe, warn or advise, never a failure (checked after the rules' own anchors:
`NCCL WARN Cuda failure 'out of memory'` is let through below)."""
_LET_THROUGH = re.compile(
    r"NCCL WARN (?:Cuda failure 'out of memory'|Duplicate GPU)|Bootstrap : no socket interface"
)

EXCEPTION_LINE = re.compile(
    r"^(?:[A-Za-z_][\w]*\.)*(?P<name>[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)|"
    r"AssertionError|KeyboardInterrupt|StopIteration)(?::\s*(?P<message>.*))?$"
)
"""The last line of a Python traceback: `ValueError: …`, `torch.OutOfMemoryError: …`."""

_NOT_A_CAUSE = re.compile(
    r"ChildFailedError|SignalException|KeyboardInterrupt|SystemExit|CalledProcessError|"
    r"ProcessExitedException|ProcessRaisedException|BrokenPipeError|"
    r"subprocess\.CalledProcessError|returned non-zero exit status"
)
"""Exceptions that only report another process's failure (torchrun's, mp.spawn's, a shell's)."""


def classify(text: str) -> Rule | None:
    """The rule a log line matches, or None (a warning, INFO chatter, or nothing wrong)."""
    stripped = text.strip()
    if not stripped:
        return None
    if _NOISE.search(stripped) and not _LET_THROUGH.search(stripped):
        return None
    for rule in RULES:
        if rule.pattern.search(stripped):
            return rule
    return None


def exception_rule(text: str, strict: bool = False) -> Rule | None:
    """For a traceback's last line that no rule matches: a user code error, unless it only
    reports another process's failure. `strict` (no `Traceback` line before it): only a
    Python error name with a message counts, not `Exception` or `…Failure` words in prose."""
    m = EXCEPTION_LINE.match(text.strip())
    if m is None or _NOT_A_CAUSE.search(text):
        return None
    if strict and (not m.group("name").endswith("Error") or not m.group("message")):
        return None
    return USER_CODE


USER_CODE = Rule("user_code_error", ROOT, re.compile(r"(?!)"))


GUIDE = "https://learn.microsoft.com/azure/machine-learning/how-to-train-distributed-gpu"
FIXES: dict[str, str] = {
    "nccl_timeout": (
        "A collective waited past its timeout because a rank never joined it: look at the "
        "culprit rank's log just before the timeout (a slow or stuck data loader, an "
        "`if rank == 0:` branch that runs a collective or a long save on one rank only, "
        "uneven batches). Make every rank "
        "call the same collectives in the same order; for a long rank-0-only step raise "
        "`init_process_group(timeout=timedelta(minutes=N))`; set `TORCH_NCCL_TRACE_BUFFER_SIZE` "
        "and `TORCH_DISTRIBUTED_DEBUG=DETAIL` to see which collective each rank is in "
        "(https://pytorch.org/docs/stable/distributed.html#debugging-torch-distributed-applications)."
    ),
    "cuda_oom": (
        "The GPU ran out of memory: lower the per-GPU batch size (keep the global batch with "
        "gradient accumulation), enable mixed precision or activation checkpointing, or shard the "
        "model (FSDP, DeepSpeed ZeRO); `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` helps "
        "fragmentation (https://pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage). "
        "On Azure ML a larger GPU SKU is the other way out."
    ),
    "host_oom_killed": (
        "The process was killed with SIGKILL, which is almost always the kernel's out-of-memory "
        "killer: host RAM ran out (every rank holds its own copy of what it loads). Load data "
        "lazily, lower DataLoader `num_workers`, or use a VM size with more memory; a DataLoader "
        "killed for shared memory needs a larger `shm_size` on the Azure ML job "
        f"({GUIDE})."
    ),
    "rendezvous_timeout": (
        "The ranks never all met: one could not reach MASTER_ADDR:MASTER_PORT or never started. "
        "Check that every node starts the same command with the same world size, that the "
        "master's port is open between nodes, and that the node count matches `instance_count`; "
        "on Azure ML let the PyTorch distribution set MASTER_ADDR/MASTER_PORT "
        f"({GUIDE}; https://pytorch.org/docs/stable/elastic/run.html)."
    ),
    "address_in_use": (
        "The rendezvous port is taken (another job or a leftover process on the same machine): "
        "stop the old process or choose a free MASTER_PORT (`torchrun --master_port`, "
        "`--rdzv-endpoint host:0` picks one). On Azure ML leave MASTER_PORT to the distribution "
        "and do not start a second launcher inside the job "
        f"({GUIDE})."
    ),
    "nccl_system_error": (
        "NCCL failed to set up or run its transport: rerun with `NCCL_DEBUG=INFO` and read the "
        "first NCCL WARN. Usual fixes: `NCCL_SOCKET_IFNAME` naming the right interface, "
        "`NCCL_IB_DISABLE=1` on VMs without InfiniBand, a larger shared memory (`shm_size`), and "
        "matching NCCL/CUDA versions on every node "
        "(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html; "
        f"{GUIDE})."
    ),
    "world_size_mismatch": (
        "Ranks disagree on the world: a RANK outside 0..WORLD_SIZE-1, two ranks on one GPU, or a "
        "world size different from what the checkpoint or config expects. Make WORLD_SIZE = nodes "
        "× processes per node, leave RANK/WORLD_SIZE to the launcher (do not hard-code them), and "
        "keep one process per GPU "
        f"({GUIDE})."
    ),
    "import_error": (
        "A module the script imports is not in the job's environment: add the package to the "
        "environment (conda file or image) and pin its version, or put the module in the code "
        "folder that is uploaded; every node runs the same environment, so one missing package "
        f"fails every rank ({GUIDE})."
    ),
    "user_code_error": (
        "The training script raised an exception on this rank: the evidence line is its message "
        "and the traceback above it in the same log shows where. Fix the script and rehearse "
        "with `dtrain-tui submit --target local` before the cloud run."
    ),
    "mpi_error": (
        "The MPI launch failed (or a process died and mpirun stopped the others): check the slot "
        "count (`process_count_per_instance` = GPUs per node), that mpirun and the ranks use the "
        "same MPI, and read the first rank that failed "
        f"(https://www.open-mpi.org/faq/?category=running; {GUIDE})."
    ),
    "segfault": (
        "A process crashed in native code (SIGSEGV or SIGBUS): usually mismatched CUDA/NCCL/"
        "framework builds or a too-small `/dev/shm` for DataLoader workers. Pin matching "
        "versions, raise `shm_size` on the Azure ML job, and rerun with "
        "`PYTHONFAULTHANDLER=1` to get the Python stack "
        f"({GUIDE})."
    ),
    "illegal_instruction": (
        "A process died of SIGILL (illegal instruction): a binary built for a newer CPU than the "
        "VM's, e.g. a wheel or image compiled for AVX-512 or AMX (or a source build with "
        "`-march=native` on another machine) run on an older VM size. Install the generic build "
        "(the official PyTorch/TensorFlow wheels, or the Azure ML curated environment) instead of "
        "a CPU-specific one, rebuild without `-march=native`, or choose a VM size with that CPU; "
        "`grep -o 'avx512[a-z]*\\|amx[a-z_]*' /proc/cpuinfo | sort -u` on a node shows what "
        f"it has ({GUIDE})."
    ),
    "abort": (
        "A process aborted (SIGABRT): native code called `abort()` after a failed C++ assertion "
        "or an uncaught C++ exception (`terminate called after throwing…`); the line before it "
        "in the same log says which. Most often NCCL, CUDA and the framework were built for "
        "different versions (a pip-installed NCCL or CUDA library over the image's): use one "
        "consistent build (the framework's own wheel with its bundled NCCL, or a curated Azure ML "
        "environment), and rerun with `NCCL_DEBUG=INFO` and `PYTHONFAULTHANDLER=1` for the stack "
        "(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html; "
        f"{GUIDE})."
    ),
    "tf_cluster_error": (
        "A TensorFlow task could not reach the others (or TF_CONFIG is wrong): every task must "
        "see the same `cluster` and its own `task`; on Azure ML use the TensorFlow distribution "
        "(it writes TF_CONFIG) with `worker_count` = instances "
        f"(https://www.tensorflow.org/guide/distributed_training; {GUIDE})."
    ),
    "unknown_failure": (
        "A rank failed without saying why in its log: read that rank's last lines and Azure ML's "
        "system_logs (user_logs only hold what the script printed); rerun with "
        "`PYTHONFAULTHANDLER=1` and `NCCL_DEBUG=INFO` for more."
    ),
    "none": "Nothing failed in these logs.",
}

SIGNAL_CAUSES = {
    9: "host_oom_killed",
    11: "segfault",
    7: "segfault",
    4: "illegal_instruction",
    6: "abort",
}
"""What a rank killed by a signal most likely died of (SIGKILL: the OOM killer)."""
WEAK_SIGNAL_CAUSES = {"abort"}
"""Signals that usually end a failure another line explains (NCCL's watchdog aborts the process
after a collective timeout): a launcher's word of them counts only when nothing else does."""
