"""Evidence per rank, read from its lines: what each line says (`doctor_rules`), and what the
launchers say about who died and how.

- **Line findings**: a rule's cause, or a traceback's last line. An exception that only reports
  another process's death (a launcher's, a spawner's) proves a failure without naming a cause:
  it becomes an `unknown_failure` at the `FAILURE` tier, never nothing. So does a log whose last
  lines are a retry loop (it stopped while waiting).
- **Launcher verdicts**: the elastic launcher's failure table (`rank : 2 (local_rank: 2)`,
  `exitcode : -9`) and its `failed (exitcode: -9) local_rank: N`; `mpirun noticed that process
  rank 5 … exited on signal 9`; MPICH's `BAD TERMINATION … EXIT CODE: 9`; a spawner's `process 3
  terminated with signal SIGKILL`; `died with <Signals.SIGSEGV: 11>`; the local backend's `rank N
  was killed by signal 9`. A signal names a cause (`causes.SIGNAL_CAUSES`); a plain non-zero exit
  proves a failure.
"""

from __future__ import annotations

import re
import signal as signals
from dataclasses import dataclass, replace
from datetime import datetime

from tui.logs.causes import ECHO, FAILURE, SIGNAL_CAUSES, VERDICT, WEAK_SIGNAL_CAUSES
from tui.logs.doctor_rules import (
    any_of,
    classify,
    exception_rule,
    is_noise,
    maybe_error,
    uncaught,
)
from tui.logs.evidence import Evidence, Line, Stream
from tui.logs.proof import topic
from tui.logs.severity import NOTICE, peel


@dataclass(frozen=True)
class Finding:
    """One rank's complaint: its cause, how much it weighs, where it was read and when."""

    cause: str
    rank: int | None
    tier: int
    evidence: Evidence
    when: datetime | None = None
    order: int = 0
    """Position among every line read (only meaningful within one log)."""
    seq: int | None = None
    op: str | None = None
    enqueued: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"cause": self.cause, "rank": self.rank, "evidence": self.evidence.to_json()}


_ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)[ T_](\d\d):(\d\d):(\d\d)(?:[.,:](\d{1,9}))?")
_GLOG = re.compile(r"^\[?[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?")
_STAMPED = re.compile(r"^\S*\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[.,\d]* ")

_INLINE_RANK = re.compile(
    r"\[(?:PG[^\]]*?)?Rank (\d+)\]|NCCL communicator was aborted on rank (\d+)|"
    r"on rank: (\d+),|^Rank (\d+): |\brank(\d+)\]|^RuntimeError: Rank (\d+), |"
    r"\b[Ee]rror on rank (\d+)\b|Duplicate GPU detected ?: rank (\d+)|"
    r"unrecognized arguments: .*--local[-_]rank[= ](\d+)|"
    r"\bsrun: error: [\w.-]+: task (\d+): "  # srun's word on one task (rank) that died
)
_SPAWNED = re.compile(r"Process (\d+) terminated with the following error")
_SEQ = re.compile(r"WorkNCCL\(SeqNum=(\d+), OpType=(\w+)")
_WORK = re.compile(r"at (?:NCCL )?work: (\d+), last enqueued NCCL work: (\d+), last completed")
_TIMEOUT_AT = re.compile(r"Timeout at NCCL work: (\d+), last enqueued NCCL work: (\d+)")
_NETWORK = re.compile(
    r"ConnectionRefusedError|ConnectionError|MaxRetryError|NewConnectionError|ReadTimeout|"
    r"Failed to establish a new connection"
)
"""An exception of a client of a metrics or plotting server (visdom, TensorBoard's uploader,
an experiment tracker): not fatal when the training's own lines go on after it."""
_NETWORK_FAULT = re.compile(r"(?i:\bconnection (?:timed out|refused|reset)|\btimed out\b)")
"""A bare network fault as an exception's message (`RuntimeError: Connection timed out`)."""
_CHAINED = re.compile(r"During handling of the above|The above exception was the direct")
_WAITING = re.compile(r"(?i:retrying|still waiting|waiting for)")
_LOGGING_ERROR = "--- Logging error ---"
"""The first line of what `logging.Handler.handleError` prints (its traceback, `Call stack:`,
`Message:`, and last `Arguments:`)."""


def line_findings(streams: dict[int | None, Stream], year: int) -> list[Finding]:
    found: list[Finding] = []
    for stream in streams.values():
        in_traceback = unfinished = False
        spawned: int | None = None
        lines = stream.lines
        last = _last_text(lines)
        handler_error = False
        for i, line in enumerate(lines):
            content = line.text
            if content.startswith(_LOGGING_ERROR) or handler_error:
                # Python's logging reporting that a handler failed to write a record, up to its
                # `Arguments:` line: a logger's trouble (often at shutdown), not the job's error.
                handler_error = not content.startswith("Arguments: ")
                continue
            if "Traceback (most recent call last)" in content and peel(content)[1].startswith(
                "Traceback (most recent call last)"
            ):  # behind whatever prefixes it carries
                in_traceback = unfinished = True
                continue
            hinted = maybe_error(content)
            if not (hinted or unfinished):
                continue  # most lines of a long log: progress, with none of the rules' words
            body = _STAMPED.sub("", content, count=1)  # `2024-05-01 10:00:02,001 ValueError: …`
            if body.strip() and not body[:1].isspace() and not _CHAINED.match(body):
                unfinished = False  # the traceback ended (its last line, or the log went on)
            if not hinted:
                continue
            if m := _SPAWNED.search(content):
                spawned = int(m.group(1))
            text = content.strip()
            rule = classify(text, checked=True)
            top_level = not body[:1].isspace()
            if rule is None and top_level and not is_noise(text):
                # Prefixes no reader knows (an orchestrator's tag, a pod's name, a level):
                # peeled, the line's own words are read; a warning stays a warning.
                level, peeled = peel(content)
                if peeled != text and level != NOTICE:
                    rule, body = classify(peeled), peeled
            tier = rule.tier if rule else None
            cause = rule.cause if rule else None
            if rule is None and top_level:
                # A traceback's last line; pasted logs often hold only that line.
                user = exception_rule(body, strict=not in_traceback)
                if user is not None:
                    cause, tier = user.cause, user.tier
                elif uncaught(body, strict=not in_traceback, checked=True):
                    cause, tier = "unknown_failure", FAILURE  # a launcher reporting a death
            elif rule is None and line is last:
                # A log that stops on an indented `AttributeError: …` (a framework's nested
                # `in user code:` error, a notebook's indent): the exception that ended it.
                user = exception_rule(body.strip(), strict=True)
                if user is not None:
                    cause, tier = user.cause, user.tier
            if cause is None or tier is None:
                continue
            if cause == "user_code_error" and _NETWORK_FAULT.search(text):
                cause, tier = _raised_in(lines, i) or (cause, tier)
            if top_level:
                in_traceback = False
            rank = stream.rank
            if rank is None:
                rank = _inline_rank(text)
            if rank is None:
                rank = spawned
            finding = Finding(cause, rank, tier, line.where, _when(lines, i, year), line.order)
            if cause == "nccl_timeout":
                finding = _with_work(finding, text)
            if cause == "user_code_error" and _NETWORK.search(text) and _went_on(lines, i):
                continue  # a metrics client lost its server; the training went on
            found.append(finding)
        found.extend(_stalled(stream))
        if unfinished and last is not None:
            # The log stops inside a traceback: the process died printing it.
            found.append(
                Finding("unknown_failure", stream.rank, FAILURE, last.where, None, last.order)
            )
    return found


_DISTRIBUTED = ("rendezvous_timeout", "nccl_system_error", "tf_cluster_error", "mpi_error")


def _raised_in(lines: list[Line], i: int, frames: int = 4) -> tuple[str, int] | None:
    """For an exception whose message is a bare network fault: the distributed subsystem whose
    code raised it, by its last frames' words (`store = TCPStore(master_addr, …)` above
    `RuntimeError: Connection timed out` is the rendezvous failing, not the script), as an
    echo of a peer that never answered; None when the frames are the script's own."""
    cause = topic("\n".join(line.text for line in lines[max(0, i - frames) : i]))
    return (cause, ECHO) if cause in _DISTRIBUTED else None


def _last_text(lines: list[Line]) -> Line | None:
    return next((line for line in reversed(lines) if line.text.strip()), None)


def _went_on(lines: list[Line], i: int, enough: int = 2) -> bool:
    """Whether the log goes on after line `i` with lines that are no error at all."""
    calm = 0
    for line in lines[i + 1 : i + 40]:
        if line.text.strip() and not line.text[:1].isspace():
            if maybe_error(line.text):
                return False
            calm += 1
            if calm >= enough:
                return True
    return False


def _stalled(stream: Stream) -> list[Finding]:
    """A log that ends in a retry loop stopped while waiting: a failure, by the loop's words."""
    last = [line for line in stream.lines[-40:] if line.text.strip()][-3:]
    if len(last) < 3 or not all(_WAITING.search(line.text) for line in last):
        return []
    cause = "nccl_system_error" if "NCCL" in last[-1].text else "unknown_failure"
    tier = ECHO if cause != "unknown_failure" else FAILURE
    return [Finding(cause, stream.rank, tier, last[-1].where, None, last[-1].order)]


def _when(lines: list[Line], i: int, year: int) -> datetime | None:
    """The time of line `i`: its own timestamp, else the last one before it (a few lines back)."""
    for line in reversed(lines[max(0, i - 30) : i + 1]):
        when = timestamp(line.text, year)
        if when is not None:
            return when
    return None


def timestamp(text: str, year: int) -> datetime | None:
    m = _ISO.search(text[:80])
    if m:
        y, mo, d, h, mi, s, frac = m.groups()
        try:
            return datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), _micro(frac))
        except ValueError:
            return None
    m = _GLOG.match(text)
    if m:
        mo, d, h, mi, s, frac = m.groups()
        try:
            return datetime(year, int(mo), int(d), int(h), int(mi), int(s), _micro(frac))
        except ValueError:
            return None
    return None


def _micro(frac: str | None) -> int:
    return int((frac or "0")[:6].ljust(6, "0"))


def log_year(streams: dict[int | None, Stream]) -> int:
    for stream in streams.values():
        for line in stream.lines[:200]:
            m = _ISO.search(line.text[:80])
            if m:
                return int(m.group(1))
    return 2000


def _inline_rank(text: str) -> int | None:
    m = _INLINE_RANK.search(text)
    if m is None:
        return None
    return int(next(g for g in m.groups() if g is not None))


def _with_work(finding: Finding, text: str) -> Finding:
    m = _SEQ.search(text)
    if m:
        return replace(finding, seq=int(m.group(1)), op=m.group(2))
    m = _WORK.search(text) or _TIMEOUT_AT.search(text)
    if m:
        return replace(finding, seq=int(m.group(1)), enqueued=int(m.group(2)))
    return finding


# ---------------------------------------------------------------------------------------------
# What launchers say

ROOT_CAUSE = re.compile(r"Root Cause \(first observed failure\)")
_SUMMARY_RANK = re.compile(r"^\s*rank\s*:\s*(\d+)")
_SUMMARY_EXIT = re.compile(r"^\s*exitcode\s*:\s*(-?\d+)")
_SUMMARY_TIME = re.compile(r"^\s*time\s*:\s*(\S+)")
_AGENT_FAILED = re.compile(
    r"failed \(exitcode: (-?\d+)\) local_rank: (\d+)|"
    r"Child process \d+ \(local_rank (\d+)\) FAILED \(exitcode (-?\d+)\)"  # the older agent's
)
_MPI_NOTICED = re.compile(
    r"(?i:mpirun|mpiexec|prterun) noticed that (?:process|job) rank (\d+) with PID \S+ on node "
    r"(?:\S+ )?exited on\s+signal (\d+)"
)
_MPI_EXITED = re.compile(r"has exited due to process rank (\d+)")
_MPI_ABORT = re.compile(r"MPI_ABORT was invoked on rank (\d+)")
_MPI_FIRST = re.compile(r"Process name: \[\[\d+,\d+\],(\d+)\]")
_MPI_EXIT_CODE = re.compile(r"^\s*Exit code:\s*(-?\d+)")
_MPICH_EXIT = re.compile(r"^=\s+EXIT CODE: (\d+)")
_RECEIVED = re.compile(r"Signal (\d+) \(SIG\w+\) received by PID")
_EXIT_CODE = re.compile(r"(?:finished|exited|ended) with exit (?:code|status) (-?\d+)")
_LOCAL_VERDICT = re.compile(
    r"(?:job Failed: )?rank (\d+) (?:\(pid \d+\) )?(?:was killed by signal (\d+)|exited with code "
    r"(-?\d+))"
)
_PROCESS_FAILED = re.compile(r"\b[Pp]rocess (\d+) failed with (?:return|exit) code (-?\d+)")
_LAUNCHER_EXIT = re.compile(r"'--local_rank=(\d+)'.*\] exits with return code = (-?\d+)")
_SPAWN_SIGNAL = re.compile(r"process (\d+) terminated with (?:signal (SIG[A-Z]+)|exit code (\d+))")
_DIED = re.compile(r"(?:'--local_rank=(\d+)'.*)?died with <Signals\.SIG\w+: (\d+)>")
_SIGNALLED = re.compile(
    r"\b(?:terminated|killed|died|exited|ended|crashed)(?: \w+)? (?:with|by|on|due to|from) "
    r"(?:the )?signal:? ?(?:(\d{1,2})\b|(SIG[A-Z]+)\b)"
)
"""Any process's end by a signal, in any tool's words (`python:699 terminated with signal 6`,
`… killed by signal 11`): the signal names the crash (`causes.SIGNAL_CAUSES`)."""
_MSMPI = re.compile(r"^\[(\d+)\] process exited without calling finalize")
"""MS-MPI's error analysis: the rank that died (`[1] process exited without calling finalize`)."""


_VERDICT_HINTS = (
    "ank", "exitcode", "Process name", "EXIT CODE", "exits with", "terminated with", "died with",
    "has exited", "MPI_ABORT", "Root Cause", "killed by signal", "exited with code", "with exit",
    "received by PID", "failed with", "signal", "without calling finalize",
)  # fmt: skip
_ANY_VERDICT = any_of(_VERDICT_HINTS)


def verdicts(streams: dict[int | None, Stream], year: int) -> list[Finding]:
    """What launchers said about who died and how."""
    found: list[Finding] = []
    for stream in streams.values():
        lines = stream.lines
        for i, line in enumerate(lines):
            content, where, order = line.text, line.where, line.order
            if _ANY_VERDICT.search(content) is None:
                continue
            text = content.strip()
            if ROOT_CAUSE.search(text):
                found.extend(_summary_block(lines[i + 1 : i + 14], year, -1))
                continue
            if _SUMMARY_RANK.match(content) and not _in_root_cause(lines, i):
                found.extend(_summary_block(lines[i : i + 4], year, order))
                continue
            rank = code = None
            if m := _AGENT_FAILED.search(text):
                code, rank = int(m[1] or m[4]), int(m[2] or m[3])
            elif m := _MPI_NOTICED.search(_with_next(lines, i)):
                rank, code = int(m.group(1)), -int(m.group(2))
            elif (m := _LOCAL_VERDICT.search(text)) and where.log.endswith("launcher.txt"):
                rank = int(m.group(1))
                code = -int(m.group(2)) if m.group(2) else int(m.group(3))
            elif (m := _PROCESS_FAILED.search(text)) or (m := _LAUNCHER_EXIT.search(text)):
                rank, code = int(m.group(1)), int(m.group(2))
            elif m := _SPAWN_SIGNAL.search(text):
                rank = int(m.group(1))
                code = -_signal_number(m.group(2)) if m.group(2) else int(m.group(3))
            elif m := _DIED.search(text):
                rank = int(m.group(1)) if m.group(1) else None
                code = -int(m.group(2))
            elif (m := _RECEIVED.search(text)) and not _in_table(lines, i):
                code = -int(m.group(1))
            elif m := _EXIT_CODE.search(text):
                code = int(m.group(1))
            elif m := _MPICH_EXIT.match(text):
                code = -int(m.group(1)) if int(m.group(1)) in SIGNAL_CAUSES else int(m.group(1))
            elif m := _MPI_FIRST.search(text):
                rank = int(m.group(1))
                after = [ln.text for ln in lines[i + 1 : i + 3]]
                codes = [int(e.group(1)) for c in after if (e := _MPI_EXIT_CODE.match(c))]
                code = codes[0] if codes else None
            elif m := (
                _MPI_EXITED.search(text)
                or _MPI_ABORT.search(text)
                or _MSMPI.match(where.text)  # its `[1] ` is read as a console's numbering
            ):
                rank = int(m.group(1))
            elif m := _SIGNALLED.search(text):
                code = -(int(m.group(1)) if m.group(1) else _signal_number(m.group(2)))
            else:
                continue
            if rank is None and code is None:
                continue
            found.append(verdict(rank, code, where, timestamp(text, year), order))
    return found


def _with_next(lines: list[Line], i: int) -> str:
    """A line joined with the next one (a banner wraps `exited on` / `signal 6`)."""
    text = lines[i].text.strip()
    if "noticed that process rank" in text and i + 1 < len(lines):
        return f"{text} {lines[i + 1].text.strip()}"
    return text


def _signal_number(name: str) -> int:
    try:
        return int(signals.Signals[name])
    except KeyError:
        return 0


def _in_table(lines: list[Line], i: int) -> bool:
    """Whether line `i` is a field of the launcher's failure table (read with its table)."""
    return any(_SUMMARY_RANK.match(ln.text) for ln in lines[max(0, i - 6) : i])


def _in_root_cause(lines: list[Line], i: int) -> bool:
    """Whether line `i` is inside a `Root Cause` block (read as a block already)."""
    return any(ROOT_CAUSE.search(ln.text) for ln in lines[max(0, i - 3) : i])


def _summary_block(block: list[Line], year: int, order: int) -> list[Finding]:
    rank = code = when = None
    where = None
    for line in block:
        content = line.text
        if (m := _SUMMARY_RANK.match(content)) and rank is None:
            rank = int(m.group(1))
        elif (m := _SUMMARY_EXIT.match(content)) and code is None:
            code, where = int(m.group(1)), line.where
        elif (m := _SUMMARY_TIME.match(content)) and when is None:
            when = timestamp(m.group(1).replace("_", " "), year)
        elif content.startswith("====="):
            break
    if rank is None or where is None:
        return []
    return [verdict(rank, code, where, when, order)]


def verdict(rank: int | None, code: int | None, where: Evidence, when, order: int) -> Finding:
    """A launcher's word: a signal names its cause, any other non-zero exit proves a failure."""
    cause = "unknown_failure"
    if code is not None and code < 0:
        cause = SIGNAL_CAUSES.get(-code, "unknown_failure")
    elif code is not None and code > 128 and code - 128 in SIGNAL_CAUSES:  # a shell's 137, 139
        cause = SIGNAL_CAUSES[code - 128]
    strong = cause not in ("unknown_failure", *WEAK_SIGNAL_CAUSES)
    tier = VERDICT if strong else FAILURE
    if code == 0:
        tier = FAILURE + 1  # exit 0 is no failure at all
    return Finding(cause, rank, tier, where, when, order)
