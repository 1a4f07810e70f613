"""The job doctor: read every rank's log, find the failure that came first, name its rank and cause.

A dying 16-rank job fills rank 0's log with symptoms (a collective timeout, a reset connection)
of what happened elsewhere. The doctor reads all of it:

1. **Streams per rank.** Per-rank files (`user_logs/std_log_process_N.txt`, TensorFlow task
   logs, `azureml-logs/70_driver_log_N.txt`, see `names`) and one interleaved console log whose
   lines carry the rank (`[rank3]:`, `[default3]:`, `3:`, mpirun's `[1,3]<stderr>:`) become one
   stream per rank; what has no rank (a launcher's own output) is the launcher's stream.
2. **Findings.** Each line is classified (`causes.RULES`); a Python traceback's last line that no
   rule knows is a user code error. Launcher summaries (torchrun's `Root Cause` block, its
   `failed (exitcode: -9) local_rank: N`, `mpirun noticed that process rank N … exited on
   signal 9`, the local backend's `rank N was killed by signal 9`) say who died and how.
3. **The first failure.** Causes outrank verdicts, which outrank collective timeouts, which
   outrank echoes (tiers in `causes`). Among the best tier, the first in time: by timestamp where
   the lines have them, else the launcher's first observed failure, else the log that stopped
   growing first, else the order in an interleaved log, else the lowest rank.
4. **Collective timeouts.** PyTorch's watchdog prints each rank's `WorkNCCL(SeqNum=…)` and "last
   enqueued/completed NCCL work". The culprit is the rank that never entered the collective: one
   with no timeout while the others time out, the one whose enqueued count lags, the odd one out
   in sequence number or operation; `failed to pass monitoredBarrier` names it outright.

No Textual, no Azure; reading a folder is the only I/O (`load_path`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from tui.logs.causes import (
    ECHO,
    FIXES,
    ROOT,
    SIGNAL_CAUSES,
    TIMEOUT,
    VERDICT,
    WEAK_SIGNAL_CAUSES,
    classify,
    exception_rule,
)
from tui.logs.names import rank_logs

MAX_BYTES = 64 << 20
"""The most of one log the doctor reads (its end: failures are there)."""

_STAMP = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[.,\d]* ")  # `date … [rank3]: …`
_PREFIXES = (
    re.compile(r"^\[(?:rank|default|RANK )(\d{1,5})\]:\s?"),  # torchrun --tee, torch's own
    re.compile(r"^\[\d+,(\d{1,5})\]<(?:stdout|stderr)>:\s?"),  # mpirun --tag-output, horovodrun
    re.compile(r"^(?:\[\d+\] )?\[dtrain-tui rank (\d{1,5})\] "),
)
_NUMBER_PREFIX = re.compile(r"^\s?(\d{1,5}): ")  # srun --label, accelerate's `N:`
_CONSOLE_NOISE = re.compile(r"^(?:\[\d+\] )")  # a pasted terminal's `[80746] ` line numbers
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

_ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)[ T_](\d\d):(\d\d):(\d\d)(?:[.,:](\d{1,9}))?")
_GLOG = re.compile(r"^\[?[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?")

_INLINE_RANK = re.compile(
    r"\[(?:PG[^\]]*?)?Rank (\d+)\]|NCCL communicator was aborted on rank (\d+)|"
    r"on rank: (\d+),|^Rank (\d+): |\brank(\d+)\]"
)
_SEQ = re.compile(r"WorkNCCL\(SeqNum=(\d+), OpType=(\w+)")
_WORK = re.compile(r"at (?:NCCL )?work: (\d+), last enqueued NCCL work: (\d+), last completed")
_TIMEOUT_AT = re.compile(r"Timeout at NCCL work: (\d+), last enqueued NCCL work: (\d+)")
_MONITORED = re.compile(r"Ranks? ([\d, ]+) failed to pass monitoredBarrier")

_ROOT_CAUSE = re.compile(r"Root Cause \(first observed failure\)")
_SUMMARY_RANK = re.compile(r"^\s*rank\s*:\s*(\d+)")
_SUMMARY_EXIT = re.compile(r"^\s*exitcode\s*:\s*(-?\d+)")
_SUMMARY_TIME = re.compile(r"^\s*time\s*:\s*(\S+)")
_SUMMARY_TRACE = re.compile(r"^\s*traceback\s*:\s*(.*)")
_AGENT_FAILED = re.compile(r"failed \(exitcode: (-?\d+)\) local_rank: (\d+)")
_MPI_NOTICED = re.compile(
    r"(?:mpirun|prterun) noticed that process rank (\d+) with PID \S+ on node \S+ exited on "
    r"signal (\d+)"
)
_MPI_EXITED = re.compile(r"has exited due to process rank (\d+)")
_MPI_ABORT = re.compile(r"MPI_ABORT was invoked on rank (\d+)")
_MPI_FIRST = re.compile(r"Process name: \[\[\d+,\d+\],(\d+)\]")
_MPI_EXIT_CODE = re.compile(r"^\s*Exit code:\s*(-?\d+)")
_LOCAL_VERDICT = re.compile(
    r"(?:job Failed: )?rank (\d+) (?:\(pid \d+\) )?(?:was killed by signal (\d+)|exited with code "
    r"(-?\d+))"
)
_DEEPSPEED_EXIT = re.compile(r"'--local_rank=(\d+)'.*\] exits with return code = (-?\d+)")


@dataclass(frozen=True)
class Evidence:
    """Where the doctor read it: the log's name, the line number (from 1), the line."""

    log: str
    line: int
    text: str

    def to_json(self) -> dict[str, object]:
        return {"log": self.log, "line": self.line, "text": self.text}


@dataclass(frozen=True)
class Finding:
    """One rank's complaint: its cause, how much it weighs, where it was read and when."""

    cause: str
    rank: int | None
    tier: int
    evidence: Evidence
    when: datetime | None = None
    order: int = 0
    """Position among every line read (only meaningful within one interleaved log)."""
    seq: int | None = None
    op: str | None = None
    enqueued: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"cause": self.cause, "rank": self.rank, "evidence": self.evidence.to_json()}


@dataclass(frozen=True)
class Diagnosis:
    """The doctor's answer: the cause, the culprit rank, the line that shows it, the fix."""

    cause: str
    rank: int | None
    evidence: Evidence | None
    fix: str
    others: tuple[Finding, ...] = ()
    who: str | None = None
    """The culprit in its framework's words where its log says (`worker 1`, `ps 0` for a
    TensorFlow task); None: `rank N`."""

    @property
    def healthy(self) -> bool:
        return self.cause == "none"

    def to_json(self) -> dict[str, object]:
        return {
            "cause": self.cause,
            "rank": self.rank,
            "evidence": self.evidence.to_json() if self.evidence else None,
            "fix": self.fix,
            "others": [f.to_json() for f in self.others],
        }

    @property
    def culprit(self) -> str:
        """`rank 3`, `worker 1` (TensorFlow), or `the job` when no rank is known."""
        if self.who:
            return self.who
        return f"rank {self.rank}" if self.rank is not None else "the job"

    def paragraph(self) -> str:
        """What a person reads: who, what, where, and what to do."""
        if self.healthy:
            return "No failure found: no rank's log shows an error."
        who = self.culprit.capitalize()
        what = _WORDS.get(self.cause, self.cause)
        text = f"{who} failed first: {what} ({self.cause})."
        if self.evidence is not None:
            text += f"\n{self.evidence.log}:{self.evidence.line}: {self.evidence.text.strip()}"
        text += f"\nFix: {self.fix}"
        if self.others:
            echoes = Counter(f.cause for f in self.others)
            listed = ", ".join(f"{n} × {c}" for c, n in echoes.most_common())
            text += f"\nAlso seen (most are consequences): {listed}."
        return text


_WORDS = {
    "nccl_timeout": "a collective timed out waiting for it",
    "cuda_oom": "the GPU ran out of memory",
    "host_oom_killed": "killed by SIGKILL (the host ran out of memory)",
    "rendezvous_timeout": "the ranks never all met at the rendezvous",
    "address_in_use": "the rendezvous port was already in use",
    "nccl_system_error": "NCCL failed",
    "world_size_mismatch": "the ranks disagree on the world size or their ranks",
    "import_error": "a module could not be imported",
    "user_code_error": "the training script raised an exception",
    "mpi_error": "the MPI launch failed",
    "segfault": "crashed in native code (segmentation fault)",
    "illegal_instruction": "killed by SIGILL (an instruction its CPU does not have)",
    "abort": "aborted in native code (SIGABRT)",
    "tf_cluster_error": "a TensorFlow task could not reach the cluster",
    "unknown_failure": "it stopped without saying why",
}


@dataclass
class _Stream:
    rank: int | None
    lines: list[tuple[str, Evidence, int]] = field(default_factory=list)
    """(text without prefix, where it was read, order)."""
    mtime: float | None = None


# ---------------------------------------------------------------------------------------------
# Reading


def load_path(path: Path) -> tuple[dict[str, str], dict[str, float]]:
    """The logs in a file or folder: `{name: text}` (names relative to the folder, the way Azure
    ML names them) and their modification times. Raises OSError for a path that cannot be read."""
    path = Path(path)
    if path.is_file():
        return {path.name: _read(path)}, {path.name: path.stat().st_mtime}
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such file or folder")
    texts: dict[str, str] = {}
    mtimes: dict[str, float] = {}
    for file in sorted(path.rglob("*")):
        if not file.is_file() or file.suffix not in (".txt", ".log", ""):
            continue
        if file.stat().st_size == 0:
            continue
        name = file.relative_to(path).as_posix()
        if name.startswith(".") or "/." in name:
            continue
        texts[name] = _read(file)
        mtimes[name] = file.stat().st_mtime
    return texts, mtimes


def _read(file: Path) -> str:
    with file.open("rb") as f:
        size = f.seek(0, 2)
        f.seek(max(0, size - MAX_BYTES))
        return f.read().decode("utf-8", "replace")


def _streams(logs: Mapping[str, str], mtimes: Mapping[str, float]) -> dict[int | None, _Stream]:
    by_name = {r.name: r.rank for r in rank_logs(logs)}
    streams: dict[int | None, _Stream] = {}
    order = 0
    for name, text in logs.items():
        own = by_name.get(name)
        lines = text.split("\n")
        numbered = _uses_number_prefix(lines) if own is None else False
        for number, raw in enumerate(lines, 1):
            # A progress bar redrawn with `\r` shows its last state; line numbers count `\n`.
            line = _CONTROL.sub("", _ANSI.sub("", raw.rstrip("\r").rsplit("\r", 1)[-1]))
            rank, content = _split_prefix(line, numbered)
            if rank is None:
                rank = own
            stream = streams.setdefault(rank, _Stream(rank))
            if name in mtimes:
                stream.mtime = max(stream.mtime or 0.0, mtimes[name])
            stream.lines.append((content, Evidence(name, number, line.rstrip()[:500]), order))
            order += 1
    return streams


def _split_prefix(line: str, numbered: bool) -> tuple[int | None, str]:
    line = _CONSOLE_NOISE.sub("", line, count=1) if line.startswith("[") else line
    stamp = _STAMP.match(line)
    head, line = (line[: stamp.end()], line[stamp.end() :]) if stamp else ("", line)
    for prefix in _PREFIXES:
        m = prefix.match(line)
        if m:
            rest = line[m.end() :]
            again = _PREFIXES[0].match(rest)  # `[1,0]<stderr>:[rank0]: …`
            return int(m.group(1)), head + (rest[again.end() :] if again else rest)
    line = head + line
    if numbered:
        m = _NUMBER_PREFIX.match(line)
        if m:
            return int(m.group(1)), line[m.end() :]
    return None, line


def _uses_number_prefix(lines: list[str]) -> bool:
    """Whether a console log tags lines `N: ` (more than one N, on a good share of the lines)."""
    hits = [m.group(1) for line in lines[:5000] if (m := _NUMBER_PREFIX.match(line))]
    return len(set(hits)) > 1 and len(hits) * 4 >= min(len(lines), 5000)


# ---------------------------------------------------------------------------------------------
# Finding


def _timestamp(text: str, year: int) -> datetime | None:
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


def _findings(streams: dict[int | None, _Stream]) -> list[Finding]:
    year = _year(streams)
    found: list[Finding] = []
    for stream in streams.values():
        last_time: datetime | None = None
        in_traceback = False
        for content, where, order in stream.lines:
            when = _timestamp(content, year)
            if when is not None:
                last_time = when
            text = content.strip()
            body = _STAMP.sub("", content, count=1)  # `2024-05-01 10:00:02,001 ValueError: …`
            if body.lstrip().startswith("Traceback (most recent call last)"):
                in_traceback = True
                continue
            rule = classify(text)
            top_level = not body[:1].isspace()
            if rule is None and top_level:
                # A traceback's last line; pasted logs often hold only that line.
                rule = exception_rule(body, strict=not in_traceback)
            if rule is None:
                continue
            if top_level:
                in_traceback = False
            rank = stream.rank if stream.rank is not None else _inline_rank(text)
            finding = Finding(rule.cause, rank, rule.tier, where, when or last_time, order)
            if rule.cause == "nccl_timeout":
                finding = _with_work(finding, text)
            found.append(finding)
    return found


def _year(streams: dict[int | None, _Stream]) -> int:
    for stream in streams.values():
        for content, _, _ in stream.lines[:200]:
            m = _ISO.search(content[:80])
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


def _verdicts(streams: dict[int | None, _Stream]) -> list[Finding]:
    """What launchers said about who died and how (torchrun, mpirun, the local supervisor)."""
    year = _year(streams)
    found: list[Finding] = []
    for stream in streams.values():
        lines = stream.lines
        for i, (content, where, order) in enumerate(lines):
            text = content.strip()
            if _ROOT_CAUSE.search(text):
                found.extend(_summary_block(lines[i + 1 : i + 14], year, -1))
                continue
            if _SUMMARY_RANK.match(content) and not _in_root_cause(lines, i):
                found.extend(_summary_block(lines[i : i + 4], year, order))
                continue
            rank = code = None
            if m := _AGENT_FAILED.search(text):
                code, rank = int(m.group(1)), int(m.group(2))
            elif m := _MPI_NOTICED.search(text):
                rank, code = int(m.group(1)), -int(m.group(2))
            elif (m := _LOCAL_VERDICT.search(text)) and where.log.endswith("launcher.txt"):
                rank = int(m.group(1))
                code = -int(m.group(2)) if m.group(2) else int(m.group(3))
            elif m := _DEEPSPEED_EXIT.search(text):
                rank, code = int(m.group(1)), int(m.group(2))
            elif m := _MPI_FIRST.search(text):
                rank = int(m.group(1))
                after = [c for c, _, _ in lines[i + 1 : i + 3]]
                codes = [int(e.group(1)) for c in after if (e := _MPI_EXIT_CODE.match(c))]
                code = codes[0] if codes else None
            elif (m := _MPI_EXITED.search(text) or _MPI_ABORT.search(text)) is not None:
                rank = int(m.group(1))
            if rank is None:
                continue
            found.append(_verdict(rank, code, where, _timestamp(text, year), order))
    return found


def _in_root_cause(lines, i: int) -> bool:
    """Whether line `i` is inside a torchrun `Root Cause` block (read as a block already)."""
    return any(_ROOT_CAUSE.search(c) for c, _, _ in lines[max(0, i - 3) : i])


def _summary_block(block, year: int, order: int) -> list[Finding]:
    rank = code = when = None
    where = None
    for content, line_where, _order in block:
        if (m := _SUMMARY_RANK.match(content)) and rank is None:
            rank = int(m.group(1))
        elif (m := _SUMMARY_EXIT.match(content)) and code is None:
            code, where = int(m.group(1)), line_where
        elif (m := _SUMMARY_TIME.match(content)) and when is None:
            when = _timestamp(m.group(1).replace("_", " "), year)
        elif content.startswith("====="):
            break
    if rank is None or where is None:
        return []
    return [_verdict(rank, code, where, when, order)]


def _verdict(rank: int, code: int | None, where: Evidence, when, order: int) -> Finding:
    cause = SIGNAL_CAUSES.get(-code, "unknown_failure") if code is not None and code < 0 else "unknown_failure"
    if code is not None and code > 128 and code - 128 in SIGNAL_CAUSES:  # a shell's 137, 139
        cause = SIGNAL_CAUSES[code - 128]
    tier = VERDICT if cause not in ("unknown_failure", *WEAK_SIGNAL_CAUSES) else ECHO + 1
    return Finding(cause, rank, tier, where, when, order)


# ---------------------------------------------------------------------------------------------
# Choosing


def diagnose(
    logs: Mapping[str, str],
    mtimes: Mapping[str, float] | None = None,
    *,
    failed: bool | None = None,
) -> Diagnosis:
    """The first failure in `logs` ({name: text}), its culprit rank and the fix.

    `mtimes` (name → last write) orders ranks when no line says when; `failed` is what the
    backend knows: a failed job with nothing found is `unknown`, never `none`.
    """
    streams = _streams(logs, mtimes or {})
    findings = _findings(streams)
    verdicts = _verdicts(streams)
    launcher_first = next((v.rank for v in verdicts if v.order == -1), None)
    if launcher_first is None and verdicts:
        launcher_first = min(verdicts, key=lambda v: v.order).rank
    known_ranks = sorted(r for r in streams if r is not None)
    everything = findings + [v for v in verdicts if v.cause != "unknown_failure"]
    best = _choose(everything, streams, launcher_first, known_ranks)
    if best is None:
        last = [v for v in verdicts if v.cause == "unknown_failure"]
        if last:
            first = next((v for v in last if v.rank == launcher_first), last[0])
            best = _last_words(first, streams)
        elif failed:
            best = Finding("unknown_failure", None, ECHO + 1, _last_line(streams))
        else:
            return Diagnosis("none", None, None, FIXES["none"])
    if best.rank is None and launcher_first is not None:
        best = replace(best, rank=launcher_first)  # the launcher said who failed first
    others = _others(findings, best)
    labels = {r.rank: r.label for r in rank_logs(logs)}
    who = labels.get(best.rank) if best.rank is not None else None
    return Diagnosis(
        best.cause,
        best.rank,
        best.evidence,
        FIXES[best.cause],
        others,
        who if who and not who.startswith("rank ") else None,
    )


def _choose(
    findings: list[Finding],
    streams: dict[int | None, _Stream],
    launcher_first: int | None,
    known_ranks: list[int],
) -> Finding | None:
    if not findings:
        return None
    tier = min(f.tier for f in findings)
    pool = [f for f in findings if f.tier == tier]
    if tier == VERDICT:
        # A rank's own words beat the launcher's summary of the same death.
        own = [f for f in findings if f.tier == ROOT]
        if own:
            pool = own
    if tier == TIMEOUT:
        return _timeout_culprit(pool, streams, known_ranks)
    return _first(pool, streams, launcher_first)


def _first(
    pool: list[Finding], streams: dict[int | None, _Stream], launcher_first: int | None
) -> Finding:
    """The finding that came first in time among `pool` (see the module's docstring)."""
    timed = [f for f in pool if f.when is not None]
    if len(timed) == len(pool) and len({f.when for f in timed}) > 1:
        return min(timed, key=lambda f: (f.when, f.order))
    if launcher_first is not None:
        theirs = [f for f in pool if f.rank == launcher_first]
        if theirs:
            return min(theirs, key=lambda f: f.order)
    ranked = {f.rank for f in pool}
    stopped = {r: streams[r].mtime for r in ranked if r in streams and streams[r].mtime}
    if len(stopped) > 1 and len(set(stopped.values())) > 1:
        rank = min(stopped, key=lambda r: stopped[r])
        return min((f for f in pool if f.rank == rank), key=lambda f: f.order)
    same_log = len({f.evidence.log for f in pool}) == 1
    if same_log:
        return min(pool, key=lambda f: f.order)
    return min(pool, key=lambda f: (f.rank is None, f.rank or 0, f.order))


def _timeout_culprit(
    timeouts: list[Finding], streams: dict[int | None, _Stream], known_ranks: list[int]
) -> Finding:
    """The rank that never joined the collective the others timed out in."""
    first = min(timeouts, key=lambda f: (f.when is None, f.when or datetime.min, f.order))
    evidence = first.evidence

    def blame(rank: int | None) -> Finding:
        return Finding("nccl_timeout", rank, TIMEOUT, evidence, first.when, first.order)

    for f in timeouts:
        m = _MONITORED.search(f.evidence.text)
        if m:
            return Finding("nccl_timeout", int(m.group(1).split(",")[0]), TIMEOUT, f.evidence)
    timed_out = {f.rank for f in timeouts if f.rank is not None}
    silent = [r for r in known_ranks if r not in timed_out]
    if timed_out and silent and len(silent) < len(known_ranks):
        return blame(_stopped_elsewhere(silent, timeouts, streams))
    enqueued = {
        f.rank: f.enqueued for f in timeouts if f.enqueued is not None and f.rank is not None
    }
    if len(set(enqueued.values())) > 1:
        return blame(min(enqueued, key=lambda r: (enqueued[r], r)))
    seqs = _per_rank(timeouts, "seq")
    odd = _odd_one_out(seqs)
    if odd is not None:
        return blame(odd)
    ops = _per_rank(timeouts, "op")
    odd = _odd_one_out(ops)
    if odd is not None:
        return blame(odd)
    return blame(None)


def _stopped_elsewhere(
    silent: list[int], timeouts: list[Finding], streams: dict[int | None, _Stream]
) -> int:
    """Among ranks that never reported the timeout, the one whose log stopped somewhere else
    than where the timed-out ranks were (the others were only stopped before they could say
    so): compared by each log's last line before the timeout, numbers aside."""
    if len(silent) == 1:
        return silent[0]
    where = Counter(
        _shape(_line_before(streams[f.rank], f.order)) for f in timeouts if f.rank in streams
    )
    usual = where.most_common(1)[0][0] if where else None
    elsewhere = [r for r in silent if _shape(_line_before(streams[r], None)) != usual]
    return (elsewhere or silent)[0]


def _line_before(stream: _Stream, order: int | None) -> str:
    """The last line with text in `stream` before `order` (None: its last line)."""
    for content, _, at in reversed(stream.lines):
        if (order is None or at < order) and content.strip() and classify(content) is None:
            return content
    return ""


def _shape(line: str) -> str:
    return re.sub(r"\d+", "#", line.strip())


def _per_rank(timeouts: list[Finding], attr: str) -> dict[int, object]:
    values: dict[int, object] = {}
    for f in timeouts:
        value = getattr(f, attr)
        if f.rank is not None and value is not None and f.rank not in values:
            values[f.rank] = value
    return values


def _odd_one_out(values: dict[int, object]) -> int | None:
    """The one rank whose value differs from every other rank's (which all agree)."""
    if len(values) < 3:
        return None
    counts = Counter(values.values())
    if len(counts) != 2:
        return None
    (_, most), (rare, n) = counts.most_common()
    if n != 1 or most < 2:
        return None
    return next(r for r, v in values.items() if v == rare)


def _last_words(verdict: Finding, streams: dict[int | None, _Stream]) -> Finding:
    """A rank that exited non-zero without a recognised error: its last non-empty line."""
    stream = streams.get(verdict.rank)
    if stream is not None:
        for content, where, order in reversed(stream.lines):
            if content.strip():
                return Finding("unknown_failure", verdict.rank, verdict.tier, where, None, order)
    return verdict


def _last_line(streams: dict[int | None, _Stream]) -> Evidence | None:
    for stream in streams.values():
        for content, where, _ in reversed(stream.lines):
            if content.strip():
                return where
    return None


def _others(findings: Iterable[Finding], best: Finding, limit: int = 20) -> tuple[Finding, ...]:
    """One finding per (rank, cause) besides the diagnosis, in rank order."""
    seen = {(best.rank, best.cause)}
    out = []
    for f in sorted(findings, key=lambda f: (f.rank is None, f.rank or 0, f.order)):
        if (f.rank, f.cause) not in seen:
            seen.add((f.rank, f.cause))
            out.append(f)
    return tuple(out[:limit])
