"""The job doctor: read every rank's log, find the failure that came first, name its rank and cause.

A dying 16-rank job fills rank 0's log with symptoms (a collective timeout, a reset connection)
of what happened elsewhere. The doctor reads evidence first, then classifies:

1. **Evidence** (`evidence`): each log's head, the region around its first error and its tail,
   split into one stream of lines per rank by file name or line prefix.
2. **Findings** (`doctor_findings`): what each line says (`doctor_rules`, `signatures`), and
   what launchers say about who died and how (exit codes, signals, failure tables).
3. **The first failure.** Causes outrank verdicts, which outrank collective timeouts, which
   outrank echoes, which outrank bare proof of failure (tiers in `causes`). Among the best tier,
   the first in time: by timestamp where the lines have them, else the launcher's first
   observed failure, else the log that stopped growing first, else the order in an interleaved
   log, else the lowest rank. A cause named in a rank's own log beats a Python exception in it.
4. **Collective timeouts.** The culprit is the rank that never entered the collective: one
   with no timeout while the others time out, the one whose enqueued count lags, the odd one out
   in sequence number or operation, or the rank a waiter names (`failed to pass
   monitoredBarrier`, `… while waiting for send/recv from rank 0`).
5. **Never healthy over a failure.** A non-zero exit, a fatal signal, an uncaught exception, a
   collective timeout or a stalled retry loop is a failure: `unknown_failure` with its evidence
   when no cause fits.

No Textual, no Azure; reading files is `evidence.load_path`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime

from tui.logs.causes import (
    ECHO,
    FAILURE,
    NOT_PROVEN,
    PLATFORM,
    ROOT,
    TIMEOUT,
    VERDICT,
    fix_for,
)
from tui.logs.diagnosis import HEALTHY, UNPROVEN, Diagnosis
from tui.logs.doctor_findings import Finding, line_findings, log_year, verdicts
from tui.logs.doctor_rules import classify, maybe_error, rule_of
from tui.logs.evidence import Evidence, Excerpt, Stream, load_path, streams
from tui.logs.names import rank_logs
from tui.logs.proof import (
    completion,
    ends_in_traceback,
    last_topic,
    progressing,
    severe_lines,
    stopped_on,
    topic,
)
from tui.logs.service_error import SERVICE_ERROR, ServiceError
from tui.logs.severity import ERROR, read
from tui.logs.stacks import dumped_lines, hang_findings

__all__ = ["Diagnosis", "Evidence", "Excerpt", "Finding", "diagnose", "load_path"]

_MONITORED = re.compile(r"Ranks? ([\d, ]+) failed to pass monitoredBarrier")
_WAITED_FOR = re.compile(r"while waiting for send/recv from rank (\d+)")
_TASK = re.compile(r"waiting for response from worker: /job:(\w+)/replica:\d+/task:(\d+)")


def diagnose(
    logs: Mapping[str, str | Excerpt],
    mtimes: Mapping[str, float] | None = None,
    *,
    failed: bool | None = None,
    local: bool = False,
    succeeded: bool = False,
    running: bool = False,
    service_error: ServiceError | None = None,
) -> Diagnosis:
    """The first failure in `logs` ({name: text or excerpt}), its culprit rank and the fix.

    `mtimes` (name → last write) orders ranks when no line says when; `failed` is what the
    backend knows: a failed job with nothing found is `unknown_failure`, never `none`; `local`:
    the job ran on this machine (the fix does not tell it to rehearse here); `succeeded`: the
    backend recorded exit status 0 (proof of health); `running`: the job is still running
    (progress advancing to the end of its logs is then proof of health so far);
    `service_error`: the job's own error as the service gave it (`JobStatus.error`), read like
    one more log under `SERVICE_ERROR`.
    """
    if service_error:
        logs = {**logs, SERVICE_ERROR: service_error.text()}
    by_rank, excerpts = streams(logs, mtimes or {})
    year = log_year(by_rank)
    findings = line_findings(by_rank, year)
    inside = dumped_lines(by_rank)  # the ranks' stack dumps are read as stacks, below
    findings = [f for f in findings if (f.evidence.log, f.evidence.line) not in inside]
    told = [v for v in verdicts(by_rank, year) if v.tier <= FAILURE]
    # A banner read both ways (`mpirun noticed … signal 6`) is the launcher's verdict, not an echo.
    banners = {v.evidence for v in told}
    findings = [f for f in findings if f.evidence not in banners or f.tier < ECHO]
    launcher_first = next((v.rank for v in told if v.order == -1), None)
    if launcher_first is None and told:
        launcher_first = min(told, key=lambda v: v.order).rank
    known_ranks = sorted(r for r in by_rank if r is not None)
    named = [f for f in findings if f.tier < FAILURE] + [v for v in told if v.tier < FAILURE]
    best = _choose(named, by_rank, launcher_first, known_ranks)
    if best is not None and all(_bare_echo(f) for f in named):
        # Only echoes with no cause (`Connection reset by peer`): ranks that lost a peer. A rank
        # a launcher says died that printed no such line ended without a word: the culprit, at
        # its own last words (the launcher's first failure among them, when it says).
        lost = {f.rank for f in named}
        silent = [v for v in told if v.rank is not None and v.rank not in lost]
        if silent:
            ranks = {v.rank for v in silent}
            best = _failure(silent, by_rank, launcher_first if launcher_first in ranks else None)
    if best is None:
        proofs = [f for f in findings + told if f.tier == FAILURE]
        stopped = [s for s in (stopped_on(st) for st in by_rank.values()) if s is not None]
        if proofs:
            best = _failure(proofs, by_rank, launcher_first)
            own = by_rank.get(best.rank)
            if best.cause == "unknown_failure" and own is not None:
                best = replace(best, cause=_named_in(own))
        elif succeeded:
            return _healthy("the backend recorded the job's exit status 0")
        elif hang := hang_findings(by_rank):  # the ranks' stacks (`tui.logs.stacks`)
            best, findings = hang[0], hang[1:]
        elif stopped:
            # A log that stops on severe lines did not end well, whatever they say.
            worst = min(stopped, key=lambda s: (-s.severity, s.line.order))
            rank = next((r for r, st in by_rank.items() if worst.line in st.lines[-80:]), None)
            rule = rule_of(worst.line.text) or rule_of(read(worst.line.text).body)
            cause = rule.cause if rule is not None else topic(worst.line.text)
            if cause == "unknown_failure" and rank in by_rank:
                cause = _named_in(by_rank[rank])
            if cause == "unknown_failure" and rank in by_rank and _building(by_rank[rank]):
                cause = "environment_build_failed"  # a Docker build's log stopped on it
            best = Finding(cause, rank, FAILURE, worst.where, None, worst.line.order)
        elif failed:
            worst = severe_lines(by_rank.values(), 1)
            where = worst[0].where if worst else _last_line(by_rank)
            best = Finding("unknown_failure", None, FAILURE, where)
        elif (done := completion(by_rank.values())) is not None:
            return _healthy(f"{done.where.at}: {done.where.text.strip()}")
        elif running and (step := progressing(by_rank.values())) is not None:
            return _healthy(f"still running, progress advancing: {step.where.at}: {step.text}")
        else:
            severe = tuple(s.where for s in severe_lines(by_rank.values()))
            return Diagnosis(
                NOT_PROVEN, None, None, fix_for(NOT_PROVEN), confidence="low",
                verdict=UNPROVEN, severe=severe,
            )  # fmt: skip
    if best.rank is None and launcher_first is not None:
        best = replace(best, rank=launcher_first)  # the launcher said who failed first
    if best.rank is None and best.tier != TIMEOUT:  # a timeout's own ranks are the waiting ones
        best = replace(best, rank=_rank_beside(findings, best))
    labels = {r.rank: r.label for r in rank_logs(excerpts)}
    who = labels.get(best.rank) if best.rank is not None else None
    if who is None and best.cause == "tf_cluster_error" and (m := _TASK.search(best.evidence.text)):
        who = f"{m.group(1)} {m.group(2)}"  # the task everyone waits for
    return Diagnosis(
        best.cause,
        best.rank,
        best.evidence,
        fix_for(best.cause, local),
        _others(findings, best),
        who if who and not who.startswith("rank ") else None,
        _confidence(best),
    )


def _rank_beside(findings: list[Finding], best: Finding) -> int | None:
    """The rank another line of the same failure in the same log names when the evidence line
    names none: `RuntimeError: CUDA error: uncorrectable ECC error …`, then `[Rank 1] NCCL
    watchdog thread terminated with exception:` the same error (the first such rank)."""
    beside = (
        f
        for f in sorted(findings, key=lambda f: f.order)
        if f.cause == best.cause and f.rank is not None and f.evidence.log == best.evidence.log
    )
    return next((f.rank for f in beside), None)


def _named_in(stream: Stream) -> str:
    """The cause a failing log's own lines suggest when no line names it as a failure: what the
    dying process was doing (its last frames' subsystem, `last_topic`), else the first line
    naming a cause of its own even as a warning (`UserWarning: [Errno 28] No space left on
    device` before the crash), else the script's own exception when the log stops inside its
    traceback, else the subsystem of its first severe line (`E …/
    distributed_runtime/master.cc:269] Master init: Unavailable`); `unknown_failure` if none.
    Only read once the log is known to have failed: in a healthy run such lines are noise."""
    cause = last_topic(stream)
    if cause != "unknown_failure":
        return cause
    severe = []
    for line in stream.lines:
        if not maybe_error(line.text):
            continue
        rule = rule_of(line.text)
        if rule is not None and rule.tier == ROOT:
            return rule.cause
        if read(line.text).severity >= ERROR:
            severe.append(line.text)
    if ends_in_traceback(stream):
        return "user_code_error"  # the script raised; the paste stops before its message
    return next((c for c in map(topic, severe) if c != "unknown_failure"), "unknown_failure")


_BUILD_STEP = re.compile(r"^Step \d+/\d+ : |^#\d+ \[[\w-]* ?\d+/\d+\] ")
"""A Docker build's step line (`Step 1/6 : FROM …`, BuildKit's `#5 [2/6] RUN …`)."""


def _building(stream: Stream) -> bool:
    return any(_BUILD_STEP.match(line.text) for line in stream.lines)


def _bare_echo(f: Finding) -> bool:
    """A line that only says a peer went away (an echo), naming no cause of its own."""
    return f.tier == ECHO and f.cause == "unknown_failure"


def _healthy(proof: str) -> Diagnosis:
    return Diagnosis("none", None, None, fix_for("none"), verdict=HEALTHY, proof=proof)


def _confidence(best: Finding) -> str:
    if best.cause == "unknown_failure":
        return "low"
    return "high" if best.tier == ROOT else "medium"


def _choose(
    findings: list[Finding],
    by_rank: dict[int | None, Stream],
    launcher_first: int | None,
    known_ranks: list[int],
) -> Finding | None:
    if not findings:
        return None
    findings = [f for f in findings if not _its_message_says(f, findings)] or findings
    tier = min(f.tier for f in findings)
    pool = [f for f in findings if f.tier == tier]
    if tier == ROOT and (platform := [f for f in pool if f.cause in PLATFORM]):
        # The platform failed under the job (no image, no node, no data): the processes'
        # lines are consequences. Its most specific cause first, then the first in time.
        best = min(PLATFORM.index(f.cause) for f in platform)
        pool = [f for f in platform if PLATFORM.index(f.cause) == best]
    if tier == ROOT:
        pool = _explained(pool)
        # A cause named in a rank's own log beats a Python exception in the same log.
        specific = {f.evidence.log for f in pool if f.cause != "user_code_error"}
        pool = [f for f in pool if f.cause != "user_code_error" or f.evidence.log not in specific]
    if tier == VERDICT:
        # A rank's own words beat the launcher's summary of the same death.
        own = [f for f in findings if f.tier == ROOT]
        if own:
            pool = own
    if tier == TIMEOUT:
        return _timeout_culprit(pool, by_rank, known_ranks)
    return _first(pool, by_rank, launcher_first)


_GENERIC = ("nccl_system_error", "user_code_error", "azureml_system_error")
"""Causes a wrapper line names (`NCCL error in: … invalid usage`, an exception re-raised, the
service's `SystemError`) that the lines just below it often explain."""


def _explained(pool: list[Finding], window: int = 12) -> list[Finding]:
    """Specific before generic within a log: a generic cause drops out when a specific one is
    read a few lines below it in the same log (`NCCL error in: … invalid usage` … `Last error:
    Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 2000`)."""

    def explained(f: Finding) -> bool:
        return any(
            g.cause not in _GENERIC
            and g.evidence.log == f.evidence.log
            and 0 < g.evidence.line - f.evidence.line <= window
            for g in pool
        )

    kept = [f for f in pool if f.cause not in _GENERIC or not explained(f)]
    return kept or pool


def _its_message_says(f: Finding, findings: list[Finding], lines: int = 3) -> bool:
    """A Python exception whose own message, on the lines right below it, names a cause of any
    weight (`RuntimeError: … HcclAllreduce, error code is 6` … `Getting socket times out.
    Reason: Remote Rank did not send the data in time`): that cause is the one the error is."""
    return f.cause == "user_code_error" and any(
        g.cause not in _GENERIC
        and g.cause != "unknown_failure"
        and g.evidence.log == f.evidence.log
        and 0 < g.evidence.line - f.evidence.line <= lines
        for g in findings
    )


def _first(
    pool: list[Finding], by_rank: dict[int | None, Stream], launcher_first: int | None
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
    stopped = {r: by_rank[r].mtime for r in ranked if r in by_rank and by_rank[r].mtime}
    if len(stopped) > 1 and len(set(stopped.values())) > 1:
        rank = min(stopped, key=lambda r: stopped[r])
        return min((f for f in pool if f.rank == rank), key=lambda f: f.order)
    if len({f.evidence.log for f in pool}) == 1:
        return min(pool, key=lambda f: f.order)
    return min(pool, key=lambda f: (f.rank is None, f.rank or 0, f.order))


def _failure(
    proofs: list[Finding], by_rank: dict[int | None, Stream], launcher_first: int | None
) -> Finding:
    """No cause known, but something failed: the first proof, on the launcher's first rank."""
    first = _first(proofs, by_rank, launcher_first)  # a weak signal (SIGABRT) keeps its name
    own = by_rank.get(first.rank) if first.rank is not None else None
    if own is not None and first.evidence.log not in {ln.where.log for ln in own.lines[-1:]}:
        for line in reversed(own.lines):  # the rank's last words, not the launcher's
            if line.text.strip():
                return replace(first, evidence=line.where, order=line.order)
    return first


def _timeout_culprit(
    timeouts: list[Finding], by_rank: dict[int | None, Stream], known_ranks: list[int]
) -> Finding:
    """The rank that never joined the collective the others timed out in."""
    first = min(timeouts, key=lambda f: (f.when is None, f.when or datetime.min, f.order))
    evidence = first.evidence

    def blame(rank: int | None) -> Finding:
        return Finding("nccl_timeout", rank, TIMEOUT, evidence, first.when, first.order)

    for f in timeouts:
        if m := _MONITORED.search(f.evidence.text):
            return Finding("nccl_timeout", int(m.group(1).split(",")[0]), TIMEOUT, f.evidence)
        if m := _WAITED_FOR.search(f.evidence.text):
            return Finding("nccl_timeout", int(m.group(1)), TIMEOUT, f.evidence)
    timed_out = {f.rank for f in timeouts if f.rank is not None}
    silent = [r for r in known_ranks if r not in timed_out]
    if timed_out and silent and len(silent) < len(known_ranks):
        return blame(_stopped_elsewhere(silent, timeouts, by_rank))
    enqueued = {
        f.rank: f.enqueued for f in timeouts if f.enqueued is not None and f.rank is not None
    }
    if len(set(enqueued.values())) > 1:
        return blame(min(enqueued, key=lambda r: (enqueued[r], r)))
    for attr in ("seq", "op"):
        odd = _odd_one_out(_per_rank(timeouts, attr))
        if odd is not None:
            return blame(odd)
    return blame(None)


def _stopped_elsewhere(
    silent: list[int], timeouts: list[Finding], by_rank: dict[int | None, Stream]
) -> int:
    """Among ranks that never reported the timeout, the one whose log stopped somewhere else
    than where the timed-out ranks were (the others were only stopped before they could say
    so): compared by each log's last line before the timeout, numbers aside."""
    if len(silent) == 1:
        return silent[0]
    where = Counter(
        _shape(_line_before(by_rank[f.rank], f.order)) for f in timeouts if f.rank in by_rank
    )
    usual = where.most_common(1)[0][0] if where else None
    elsewhere = [r for r in silent if _shape(_line_before(by_rank[r], None)) != usual]
    return (elsewhere or silent)[0]


def _line_before(stream: Stream, order: int | None) -> str:
    """The last line with text in `stream` before `order` (None: its last line)."""
    for line in reversed(stream.lines):
        before = order is None or line.order < order
        if before and line.text.strip() and classify(line.text) is None:
            return line.text
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


def _last_line(by_rank: dict[int | None, Stream]) -> Evidence | None:
    for stream in by_rank.values():
        for line in reversed(stream.lines):
            if line.text.strip():
                return line.where
    return None


def _others(findings: Iterable[Finding], best: Finding, limit: int = 20) -> tuple[Finding, ...]:
    """One finding per (rank, cause) besides the diagnosis, in rank order."""
    seen = {(best.rank, best.cause)}
    out = []
    for f in sorted(findings, key=lambda f: (f.rank is None, f.rank or 0, f.order)):
        if (f.rank, f.cause) not in seen and f.tier < FAILURE and f.evidence != best.evidence:
            seen.add((f.rank, f.cause))
            out.append(f)
    return tuple(out[:limit])
