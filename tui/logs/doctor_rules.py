"""What one log line says went wrong: the doctor's line rules, the noise it reads past, and the
shape of a Python exception's last line.

Each rule maps a line (rank prefix removed) to a cause and a tier (`causes`). The rules know the
operating system, Python, CUDA, NCCL, MPI and the collective library PyTorch-based stacks share;
what one framework alone prints is data in `signatures`. Warnings, INFO chatter and retry
notices are noise, never a cause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui.logs.causes import ECHO, FAILURE, ROOT, TIMEOUT
from tui.logs.platform_rules import HINTS as PLATFORM_HINTS
from tui.logs.platform_rules import PLATFORM_RULES
from tui.logs.platform_rules import WORDS as PLATFORM_WORDS
from tui.logs.signatures import SIGNATURES
from tui.logs.trie import any_of


@dataclass(frozen=True)
class Rule:
    cause: str
    tier: int
    pattern: re.Pattern[str]
    platform: bool = False
    """One of the platform's rules: read only on lines with a platform word (`WORDS`)."""


def _rule(cause: str, tier: int, *patterns: str) -> Rule:
    return Rule(cause, tier, re.compile("|".join(f"(?:{p})" for p in patterns)))


# Order matters: the first rule that matches a line decides (specific before general).
_LINE_RULES: tuple[Rule, ...] = (
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
        # an XLA or BFC allocator on a device: `RESOURCE_EXHAUSTED: Out of memory while
        # trying to allocate …`, `Allocator (GPU_0_bfc) ran out of memory trying to allocate …`
        r"RESOURCE_EXHAUSTED: Out of memory",
        r"Allocator \((?:GPU|gpu|cuda|TPU)\w*\) ran out of memory",
    ),
    _rule(
        "host_oom_killed",
        ROOT,
        r"DataLoader worker \(pid\(?s?\)? ?[\d, ]*\)? is killed by signal: Killed",
        r"Out of memory: Kill(?:ed)? process",
        r"\boom-kill(?:er)?\b",
        r"\bOOMKilled\b",
        r"(?:^|\]|^\W+)Killed\W*$",  # alone (a paste's `**Killed**`), or after a progress bar
        r"\b\d+ Killed\s+\S",  # a shell's `line 1: 1234 Killed  python train.py`
        r"^Killed: 9\b|\b(?:zsh|bash|sh): (?:line \d+: )?(?:\d+ )?[Kk]illed\b",
        r"memory cgroup out of memory",
    ),
    _rule(
        "segfault",
        ROOT,
        r"(?i:segmentation fault)",
        r"Fatal Python error: (?:Segmentation fault|Bus error)",
        r"(?i:\bbus error\b)(?! encountered)|Unexpected bus error",
        r"is killed by signal: (?:Segmentation fault|Bus error)",
        r"\bSIGSEGV\b(?! handler)",
        # Windows' name for it (its exception code, a runtime's word for it)
        r"\b0xc0000005\b|EXCEPTION_ACCESS_VIOLATION|\bAccess violation\b",
    ),
    _rule(
        "illegal_instruction",
        ROOT,
        r"Illegal instruction",
        r"(?i:\bil+egal instruc|instrucci[oó]n ilegal)",  # a translated message
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
        "script_arguments",
        ROOT,
        r"error: unrecognized arguments: .*--local[-_]rank",
        r"(?i:^error: unrecognized arguments: )",  # argparse's, behind a wrapper's `Error:`
        r"Override '?local[-_]rank'? not found",
    ),
    _rule(
        "script_arguments",
        ROOT,
        r"^[\w./-]+\.py: error: ",  # argparse's exit 2: `train.py: error: …` (what it was passed)
    ),
    _rule(
        "world_size_mismatch",
        ROOT,
        r"Invalid rank -?\d+, rank should be",
        r"rank should be within the (?:the )?world_size",
        r"\] rank < size\. -?\d+ vs \d+",  # gloo's check of RANK against WORLD_SIZE
        r"rank (?:should|must) be (?:in the interval|less than|smaller than)",
        r"(?i:world[ _]size (?:of .*|\d+ )?(?:mismatch|does not match|doesn't match|is different))",
        r"(?i:mismatch(?:ed)? (?:in )?world[ _]size)",
        r"Duplicate GPU detected",
        r"(?i:expected world[ _]size)",
        r"RANK \d+ .* >= WORLD_SIZE",
        r"(?i:number of (?:processes|gpus|devices) .*(?:does not match|mismatch))",
        r"AssertionError: \d+ is not divisible by \d+",
        r"(?i:divisible by (?:the )?(?:world|tensor|pipeline|data)[ _]?(?:parallel )?size)",
        # a size the world is built from against another (`world_size (8) is not equal to
        # tensor_model_parallel_size (1) x …`, `… divisible by pipeline_model_parallel_size`,
        # an engine's `train_batch_size is not equal to micro_batch_per_gpu * … * world_size`)
        r"(?i:\b(?:world|\w+[ _]parallel)[ _]size\b.{0,40}\b(?:is not|isn't|must be|should be|"
        r"not) (?:equal|divisible|a multiple))",
        r"(?i:\b(?:divisible by|multiple of|equal to) (?:the )?\w+_parallel_size\b)",
        r"(?i:\b(?:is not|isn't|not) equal to\b.{0,80}\bworld[ _]size\b)",
        # more ranks on a node than it has GPUs: a rank asks for a device that is not there
        r"CUDA error: invalid device ordinal",
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
        "user_code_error",
        ROOT,
        # a CUDA kernel's assertion on the script's data (a label outside the classes, an index
        # past a tensor's end), and the error it surfaces as
        r"device-side assert(?:ion)? triggered",
        # the command names a script that is not in the job's code
        r"can't open file '[^']*': \[Errno 2\]",
        r"\.cu:\d+: \w+: block: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion",
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
        r"received errors while waiting for send/recv from rank",
        r"NCCL (?:collective |operation )?timed? ?out",
        r"(?i:heartbeat monitor timed out)",
        r"Detected mismatch between collectives",
        # another vendor's collective library waiting on a peer (`Getting socket times out.
        # Reason: Remote Rank did not send the data in time.`)
        r"(?i:remote rank did not send the data in time)",
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
        r"connect\(\) timed out",
    ),
    _rule(
        "nccl_system_error",
        ECHO,
        r"ncclRemoteError",
        r"remote process exited",
        r"NCCL communicator was aborted",
        r"ProcessGroupNCCL.* aborted",
        # PyTorch's word after any failed collective, a timeout or an error: a watchdog's
        # timeout line says which (TIMEOUT outranks this), else NCCL failed
        r"Some NCCL operations have failed or timed out",
        r"NCCL INFO [\w/.-]+\.cc:\d+ -> [1-9]\d*\s*$",  # its return-code trace: a call failed
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
        r"NCCL WARN .*(?:Connect to .* failed|Call to (?:write|recv|connect) failed)",
        r"NCCL WARN NET/\w+ ?: Got completion from peer",
        r"NCCL WARN .*->\s?[1-9]\b",
        r"NCCL WARN Cuda failure",
    ),
    _rule(
        "mpi_error",
        ROOT,
        r"There are not enough slots available",
        r"ORTE was unable to reliably start",
        r"(?:ORTE|PRTE?) (?:has lost communication|was unable)",
        r"mpirun was unable to (?:launch|find|start)",
        r"orted: command not found|prted: command not found",
        r"MPI_ERR_\w+",
        r"Fatal error in (?:P?MPI_\w+|MPI)",
        r"MPI_Init(?:_thread)? failed|PMIx? ?\w* (?:error|failed)",
        r"btl_tcp_endpoint.*(?:connect|failed)",
        r"\] Read -1, expected \d+, errno = \d+",  # Open MPI's shared-memory copy refused
    ),
    _rule(
        "mpi_error",
        ECHO,
        r"MPI_ABORT was invoked on rank",
        r"(?i:mpi(?:run|exec) noticed that (?:process|job) rank)",
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
        # the signal handler's and the shell's word for it (Open MPI's `Signal: Aborted (6)`,
        # bash's `line 26:  4767 Aborted  (core dumped) python train.py`)
        r"\bSignal: Aborted\b|\bsignal 6 \(SIGABRT\)|\b\d+ Aborted\s+\S",
        # the C libraries that abort() the process: glog's failed CHECK, glibc's heap checks
        r"^Check failed: |\*\*\* Check failure stack trace",
        r"\*\*\* Error in `[^`]*': |double free or corruption|free\(\): invalid (?:pointer|size)",
        r"malloc\(\): (?:memory )?corrupt|corrupted size vs\. prev_size|stack smashing detected",
    ),
    _rule(
        "unknown_failure",
        ECHO,
        r"Connection closed by peer",
        r"Connection reset by peer",
        r"Broken pipe",
        r"SignalException: Process \d+ got signal: 15",
        r"got signal: 15|closing signal SIGTERM",
        # a library's word that it stopped because another rank failed (an MPI library's shutdown):
        # the peer's own error, not the library, is the cause
        r"(?i:caused by an? (?:exception|error) on (?:one of the|another) ranks?)",
    ),
    _rule(
        "unknown_failure",
        FAILURE,
        r"\(core dumped\)",
        r"Fatal Python error: ",
        r"\(most recent call first\):",  # a fatal signal's stack dump (faulthandler)
    ),
)

_PLATFORM = tuple(Rule(r.cause, r.tier, r.pattern, platform=True) for r in PLATFORM_RULES)
RULES: tuple[Rule, ...] = (
    *(r for r in _PLATFORM if r.tier == ROOT),
    *_LINE_RULES,
    *(r for r in _PLATFORM if r.tier != ROOT),
)
"""The platform's own failures first (their texts are specific: `platform_rules`), then what
the processes print, then the platform's bare word that the user's program failed."""

_NOISE = re.compile(
    r"NCCL INFO|NCCL WARN|^\[?W(?:\d{4})? |^\[W |Warning:|WARNING|warnings\.warn|\bwarn\(|"
    r"Failed to initialize NumPy|DeprecationWarning|FutureWarning|UserWarning|"
    r"OMP_NUM_THREADS|^\s*(?:File \"|frame #|\^)|TORCH_NCCL_|NCCL_ASYNC_ERROR_HANDLING|"
    r"To enable traceback see|To execute this test|TORCH_DISTRIBUTED_DEBUG|"
    r"^\s*(?:\d+%\|| *\|)|Exception ignored in|entering retry loop|retrying\b|"
    r"^\s*(?:#(?!#\[)|>>>|\$ )"  # a comment or a prompt; not a CI's `##[error]` command
)
"""Lines that describe, warn or advise, never a failure (checked after the rules' own anchors:
`NCCL WARN Cuda failure 'out of memory'` is let through below)."""
_LET_THROUGH = re.compile(
    r"NCCL WARN (?:Cuda failure|Duplicate GPU|.*(?:Connect to .* failed|"
    r"Call to (?:write|recv|connect) failed|Got completion from peer|->\s?[1-9]\b))|"
    r"Bootstrap : no socket interface|Rendezvous\w*Error|closing signal SIGTERM|"
    r"NCCL INFO [\w/.-]+\.cc:\d+ -> [1-9]"
)
_BENIGN_WARN = re.compile(r"falling back|No device found|libibverbs|ibv_open_device|Unable to open")

EXCEPTION_LINE = re.compile(
    r"^(?:[A-Za-z_][\w]*\.)*(?P<name>[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)|"
    r"AssertionError|KeyboardInterrupt|StopIteration)(?:\((?P<inner>\w+)\))?"
    r"(?::\s*(?P<message>.*))?$"
)
"""The last line of a Python traceback: `ValueError: …`, `torch.OutOfMemoryError: …`,
`RayTaskError(KeyError): …` (an error raised in a worker, named inside)."""

_NOT_A_CAUSE = re.compile(
    r"ChildFailedError|SignalException|KeyboardInterrupt|SystemExit|CalledProcessError|"
    r"ProcessExitedException|ProcessRaisedException|BrokenPipeError|RayActorError|"
    r"subprocess\.CalledProcessError|returned non-zero exit status|exited with non-zero status|"
    r"^Exception: *$|terminated with (?:signal|exit code)"
)
"""Exceptions that only report another process's failure (a launcher's, a spawner's, a shell's)."""


_HINTS = (
    "rror", "RROR", "xception", "ailure", "Exit", "nterrupt", "StopIteration", "Traceback",
    "emory", "OOM", "FAIL", "ill", "fault", "SIG", "legal", "opcode", "in use", "EADDRINUSE",
    "ailed", "rrno", "nrecognized", "ocal", "ank", "RANK", "orld", "Duplicate", "ivisible",
    "umber of", "odule", "annot", "undefined", "atchdog", "NCCL", "imeout", "imed out",
    "ime out", "onitoredBarrier", "send/recv", "eartbeat", "ismatch", "ocket", "exited", "slots",
    "RTE", "PRT", "mpirun", "orted", "MPI", "PMI", "btl_", "Read -", "noticed", "Primary job",
    "terminate", "Abort", "Assertion", "onnection", "roken pipe", "ignal", "ollective",
    "core", "Fatal", "recent call first", ".py: error", "egmentation", "us error",
    "double free", "free()", "malloc()", "corrupted size", "stack smashing", "arallel_size",
    "arallel size", "ccess violation", "ACCESS_VIOLATION", "in time",
)  # fmt: skip
"""Words at least one rule or a traceback's last line needs: a line with none of them is read
past without running every rule (most lines of a long log are progress)."""


_HINTS = tuple(
    dict.fromkeys(_HINTS + tuple(sorted({sig.hint for sig in SIGNATURES})) + PLATFORM_HINTS)
)


_ANY_HINT = any_of(_HINTS)
_PLATFORM_WORD = any_of(PLATFORM_WORDS)
_SHAPES: dict[bytes, bool] = {}
"""`maybe_error` by a line's shape (its digits removed, as bytes: `bytes.translate` is ten times
`str.translate`): the lines of a long log are a few shapes with changing numbers (`step 1234 |
loss 0.8123`), and no hint holds a digit, so the shape's answer holds for every such line (at
worst a line is read that had no hint). Bounded: emptied when full."""
_MAX_SHAPES, _LONGEST_SHAPE = 4096, 400  # at most ~2 MB
assert not any(ch.isdigit() for hint in _HINTS for ch in hint), "a hint with a digit: no shapes"


def maybe_error(text: str) -> bool:
    """Whether a line holds any rule's word (`_HINTS`): a line without is no error."""
    shape = text.encode("utf-8", "surrogatepass").translate(None, b"0123456789")
    said = _SHAPES.get(shape)
    if said is None:
        said = _ANY_HINT.search(shape.decode("utf-8", "surrogatepass")) is not None
        if len(shape) <= _LONGEST_SHAPE:
            if len(_SHAPES) >= _MAX_SHAPES:
                _SHAPES.clear()
            _SHAPES[shape] = said
    return said


def classify(text: str, checked: bool = False) -> Rule | None:
    """The rule a log line matches, or None (a warning, INFO chatter, or nothing wrong);
    `checked`: the caller already knows `maybe_error(text)`."""
    stripped = text.strip()
    if not stripped or not (checked or maybe_error(stripped)):
        return None
    if is_noise(stripped) and not _more_workers(stripped):
        return None
    return rule_of(stripped)


def is_noise(text: str) -> bool:
    """A line that describes, warns or advises (`_NOISE`), unless a rule's anchor lets it
    through."""
    return bool(_NOISE.search(text)) and not (
        _LET_THROUGH.search(text) and not _BENIGN_WARN.search(text)
    )


def rule_of(text: str) -> Rule | None:
    """The most specific rule a line matches (noise or not: also for the line a log stops on,
    where a warning that the store cannot be reached mattered). Specific before generic within
    the line: a rule naming a cause of its own (`ROOT`) beats a timeout or an echo in the same
    line (`… timed out … Connection refused by peer`); among equals, the first in `RULES`."""
    stripped = text.strip()
    if _more_workers(stripped):
        return _MORE_WORKERS
    platform = _PLATFORM_WORD.search(stripped.lower()) is not None
    best: Rule | None = None
    for rule in RULES:
        if rule.platform and not platform:
            continue
        if (best is None or rule.tier < best.tier) and rule.pattern.search(stripped):
            best = rule
            if rule.tier == ROOT:
                return best
    for sig in SIGNATURES:
        if sig.hint not in stripped:
            continue  # every line a signature matches holds its hint
        if (best is None or sig.tier < best.tier) and sig.pattern.search(stripped):
            best = Rule(sig.cause, sig.tier, sig.pattern)
    return best


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


def uncaught(text: str, strict: bool = False, checked: bool = False) -> bool:
    """Whether a line is a traceback's last line (any exception, a launcher's included);
    `strict` (no `Traceback` line before it): an error name with a message."""
    if text[:1].isspace() or not (checked or maybe_error(text)):
        return False
    m = EXCEPTION_LINE.match(text.strip())
    if m is None:
        return False
    return not strict or (m.group("name").endswith("Error") and bool(m.group("message")))


def is_error(text: str) -> bool:
    """Whether a line is worth reading around: a rule's line or an exception's last line."""
    return classify(text) is not None or uncaught(text)


USER_CODE = Rule("user_code_error", ROOT, re.compile(r"(?!)"))
_BARRIER_COUNT = re.compile(r"\(world_size=(\d+), worker_count=(\d+)")
"""The store barrier's count when it times out (`… store based barrier … (world_size=8,
worker_count=9, …)`): fewer workers than the world is a rank that never came, more is two jobs
or a stale store sharing one world."""
_MORE_WORKERS = Rule("world_size_mismatch", ROOT, _BARRIER_COUNT)


def _more_workers(text: str) -> bool:
    """Whether more ranks checked in at the store barrier than the world has."""
    count = _BARRIER_COUNT.search(text)
    return count is not None and int(count[2]) > int(count[1])
