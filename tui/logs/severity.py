"""How severe a log line is, whatever prefixes it carries: one mechanism for every tool.

A line is first *peeled*: timestamps (ISO, syslog, a clock), hosts, pids, pod names, rank tags
of any launcher or orchestrator (`[1,0]<stderr>:`, `0: `, `(pid=123)`, `[rank3]:`, `[RANK:0]`,
`host:pid:tid [3]`, `worker-0: `), one after another, as long as one matches. Level tags met on
the way (`[ERROR]`, `ERROR:`, `| INFO |`, glog's `E0321 …]` letter) are kept: a line's own level
is the best word on how bad it is. What remains is the body; its words decide when no level tag
did (`Killed`, a signal, an errno text, an exit code, `failed`, `abort`, `…Error:`).

Severity is what the doctor reads when no rule names a cause: a log that stops on severe lines
did not end well; one whose worst line is a warning proved nothing either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NONE, NOTICE, ERROR, FATAL = 0, 1, 2, 3
"""Nothing wrong · a warning · an error · the process is dying (a signal, a fatal error)."""
WORDS = {NONE: "info", NOTICE: "warning", ERROR: "error", FATAL: "fatal"}

_LEVELS = {
    "TRACE": NONE, "DEBUG": NONE, "INFO": NONE, "I": NONE, "NOTICE": NONE,
    "WARN": NOTICE, "WARNING": NOTICE, "W": NOTICE,
    "ERROR": ERROR, "ERR": ERROR, "E": ERROR, "SEVERE": ERROR,
    "CRITICAL": FATAL, "FATAL": FATAL, "F": FATAL, "PANIC": FATAL, "EMERG": FATAL,
}  # fmt: skip
_LEVEL = r"(?P<level>TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|ERR|SEVERE|CRITICAL|FATAL|PANIC)"

# Each is tried at the line's start, in this order, again and again until none matches.
_PEELS = tuple(
    re.compile(p)
    for p in (
        # a level tag: `[ERROR]`, `ERROR:`, `ERROR -`, `| ERROR |`, `ERROR:root:`, `<ERROR>`;
        # closed, it may touch the text (`[CONTROLLER][ERROR]Job failed`)
        rf"^[\[<]\s*{_LEVEL}\s*[\]>]:?",
        r"^##\[(?P<level>error|warning|debug)\]",  # Azure Pipelines' and GitHub's log command
        rf"^[\[<|]?\s*{_LEVEL}\s*[\]>|]?(?::[\w.]*:|:|\s+-|\s*\||\])?(?=\s|$|\[)",
        # glog and c10: `E0321 02:07:08.408 123 file.cc:12]`, `[E321 02:07:08.4 x.cpp:607]`,
        # `[W socket.cpp:697]`, a C++ runtime's `W …/core/…/op.cc:103]` (a path)
        r"^\[?(?P<glog>[IWEF])(?:\d{3,4} \d\d:\d\d:\d\d(?:\.\d+)?(?: +\d+)?)? ?[\w./-]+:\d+\]",
        # times: ISO (bracketed or not, with a zone), syslog's `Mar  3 10:00:02`, a clock
        r"^\[?\d{4}-\d\d-\d\d(?:[ T_]\d\d:\d\d(?::\d\d)?(?:[.,:]\d+)?)?"
        r"(?:Z|[+-]\d\d:?\d\d| ?UTC)?\]?,?",
        r"^\[?[A-Z][a-z]{2} +\d+ \d\d:\d\d:\d\d(?:\.\d+)?\]?",
        r"^\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?",
        r"^\d{10}(?:\.\d+)?\b",  # an epoch stamp
        # rank tags and bracketed fields: `[rank3]:`, `[1,0]<stderr>:`, `[RANK:0]`, `[PID:12]`,
        # `[axolotl.validate_config:169]`, `[host-1]`
        r"^\[[^\]\s]{1,60}\](?:<(?:stdout|stderr)>)?:?",
        r"^<(?:stdout|stderr)>:",
        r"^(?:stdout|stderr) [FP] ",  # a container runtime's log file (CRI: stream, full/part)
        # syslog's and journald's `host prog[pid]:`, `host kernel:`
        r"^(?:[\w.-]+ )?(?:kernel|[\w./-]+\[\d+\]):(?=\s)",
        # actors and pids: `(Worker pid=12, ip=10.0.0.1)`, `(pid=123)`
        r"^\((?:[\w.]+ )?pid=\d+[^)]{0,40}\)",
        # NCCL's `host:pid:tid [3]`, a `host:pid:` pair
        r"^[\w.-]+:\d+:\d+ (?:\[\d+\])?",
        # a number tag (`0: `, srun's label), a pod or host name (`worker-0: `, `gpu-node-3:`),
        # compose's `svc_1  | `
        r"^\d{1,5}:(?=\s)",
        r"^(?![\w.]*\.py:)(?=[a-z0-9.-]*[\d-])[a-z0-9][a-z0-9.-]{1,62}:(?=\s)",
        r"^[\w.-]+\s+\|(?=\s)",
        # separators the tags leave behind; the quote a line pasted as a JSON string opens with
        r"^[\s:|,\-]+(?=\S)",
        r'^"(?=[A-Z])',
    )
)
_MAX_PEELS = 12


@dataclass(frozen=True)
class Read:
    """A line read: its body (prefixes peeled), the level its tags said (None: no tag) and its
    severity (`NONE` … `FATAL`)."""

    body: str
    level: int | None
    severity: int
    words: int = NONE
    """What the body's words alone say (a warning tag aside): `WARN … failed to connect` is a
    warning by its tag and an error by its words."""


def peel(text: str) -> tuple[int | None, str]:
    """The level a line's prefixes name (None: none did) and the line without its prefixes."""
    line = text.strip()
    level: int | None = None
    for _ in range(_MAX_PEELS):
        for pattern in _PEELS:
            m = pattern.match(line)
            if m is None or m.end() == 0:
                continue
            tag = m.groupdict().get("level") or m.groupdict().get("glog")
            if tag is not None:
                said = _LEVELS[tag.upper()]
                level = said if level is None else max(level, said)
            line = line[m.end() :].lstrip()
            break
        else:
            break
    return level, line


_FATAL_WORDS = re.compile(
    r"\bFATAL\b|Fatal (?:Python )?error|\bpanic:|core dumped|[Ss]egmentation fault|"
    r"^Killed\b|\bKilled\s*$|\bKilled process\b|\bkilled by signal\b|"
    r"\bSIG(?:KILL|SEGV|ABRT|BUS|ILL)\b|"
    r"^Aborted\b|\bterminate called\b|Bus error|Illegal instruction"
)
_ERROR_WORDS = re.compile(
    r"\bERROR\b|\b[Ee]rror\b(?!s? ?(?:=|: ?0\b|rate|bar|handling|checking))|"
    r"\w(?:Error|Exception)\b|"
    r"\bTraceback\b|\b[Ff]ail(?:ed|s|ure)?\b|\bFAIL(?:ED|URE)?\b|\b[Aa]bort(?:ed|ing)?\b|\bABORT|"
    r"\berrno\b|\bexit(?:ed)?(?: with)? (?:code|status)[:=]? ?-?[1-9]|exitcode: ?-?[1-9]|"
    r"returned non-zero|non-zero exit|[Tt]imed? ?out\b|[Uu]nable to\b|[Cc]ould not\b|"
    r"[Cc]annot\b|[Cc]an't\b|[Rr]efused\b|[Dd]enied\b|\bNCCL WARN\b|[Nn]o space left|"
    r"[Oo]ut of memory|[Nn]ot enough (?:memory|space)|[Uu]nreachable\b|\bdied\b|\blost\b|"
    r"[Uu]nauthori[sz]ed\b|[Ff]orbidden\b|authentication required"
)
_WARN_WORDS = re.compile(r"\b[Ww]arn(?:ing)?\b|\bWARN(?:ING)?\b|Deprecat|\w+Warning\b")
_NCCL_BENIGN = re.compile(
    r"falling back|No device found|libibverbs|ibv_open_device|Unable to open|"
    r"NET/Plugin|Could not find real path|NCCL_[A-Z_]+ set by environment"
)
"""NCCL WARN lines healthy runs print too (no InfiniBand on the VM, a plugin it does not have)."""


def read(text: str) -> Read:
    """A line's body and severity: its own level tag where it has one, else its words."""
    level, body = peel(text)
    if "NCCL WARN" in text:
        # NCCL prints its errors at WARN, its harmless notices too: the words decide.
        severity = NOTICE if _NCCL_BENIGN.search(text) else ERROR
        return Read(body, level, severity, severity)
    words = _by_words(body)
    if words == FATAL:
        # A fatal word outranks an INFO tag (a launcher logs a child's SIGKILL at INFO).
        return Read(body, level, FATAL, words)
    if level is not None:
        return Read(body, level, level, words)
    return Read(body, level, words, words)


_SEVERE_WORDS = (
    "rror", "xception", "traceback", "fail", "abort", "errno", "exit", "non-zero", "time",
    "unable", "could not", "cannot", "can't", "refused", "denied", "no space", "out of memory",
    "not enough", "unreachable", "died", "lost", "unauthori", "forbidden", "authentication",
    "fatal", "panic", "core dumped", "segmentation", "killed", "sig", "bus error", "illegal",
    "terminate", "warn", "deprecat",
)  # fmt: skip
"""A word (lower-cased) every line the three patterns above match holds: a line without any is
read past with one search (their case-insensitive groups cost ten times more)."""


def _any_word(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


_SEVERE_WORD = _any_word(_SEVERE_WORDS)


def _by_words(body: str) -> int:
    if not _SEVERE_WORD.search(body.lower()):
        return NONE
    if _FATAL_WORDS.search(body):
        return FATAL
    if _ERROR_WORDS.search(body) and not _WARN_WORDS.search(body):
        return ERROR
    return NOTICE if _WARN_WORDS.search(body) else NONE


def severity(text: str) -> int:
    """How bad a line says things are (`NONE` … `FATAL`)."""
    return read(text).severity
