"""What proves a run healthy, and what a log that proves nothing still shows.

"No error found" is not health: a log cut short, or one whose errors the rules do not know, says
nothing either way. The doctor calls a run healthy only with proof:

- the backend recorded an exit status of 0 (the caller says so: `diagnose(succeeded=True)`);
- a *completion line*: a launcher's or a trainer's word that the run ended well (`exit code 0`,
  `exits successfully`, `worker group successfully finished`, `max_epochs=N reached`, a
  trainer's `Training completed`, a progress bar at its total) with nothing severe after it;
- for a job still running: progress lines at the end of its logs, advancing, nothing severe
  after them.

Otherwise the run is *not proven*: the lines worth a look are the most severe ones seen
(`severity`), ranked. And a log that *stops* on severe lines (within its last lines, no progress
after them) did not end well: that is a failure, even when no rule names its cause.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tui.logs.doctor_rules import _NOISE
from tui.logs.evidence import Evidence, Line, Stream
from tui.logs.severity import ERROR, NOTICE, read
from tui.logs.trie import any_of

COMPLETION = re.compile(
    r"(?i:\bexit(?:ed)?(?: with)? (?:code|status)[:=]? ?0\b(?![.,]\d))|"
    r"\bexitcode: ?0\b|Process (?:has ended|finished|exited), exit code 0\b|"
    r"(?i:\bexits? successfully\b)|worker group successfully finished|"
    r"(?:WorkerState|worker\.status)\.SUCCEEDED|"
    r"Done waiting for other agents|"
    r"`?Trainer\.fit`? stopped: `?max_(?:epochs|steps)=\d+`? reached|"
    r"(?i:\btraining (?:is )?(?:completed|complete|finished|done)\b)|(?i:\bfinished training\b)|"
    r"'train_runtime': |"
    r"(?i:\b(?:job|run|training|program|script) (?:completed|finished|succeeded|ended) "
    r"successfully\b)|"
    r"destroy_process_group\(\) was not called before program exit|"
    r"has NOT been destroyed before we destruct ProcessGroupNCCL|"
    r"The experiment completed successfully|\bStatus: (?:Finished|Completed)\b|"
    r"\b[Ss]tatus from \w+ to (?:Completed|Succeeded|Finished)\b|"
    r"^\s*--- PASS: \S+ \(\d|"
    r"\b(?:[Tt]otal training time|Training time:?) (?:\d+ days?, )?\d+:\d\d|"
    # a training toolkit's verdict (SageMaker's), MLPerf's logged end of a run (`:::MLL`'s JSON,
    # `:::MLPv0.5.0 … run_stop: {"success": true}`)
    r"(?i:\breporting training success\b)|\bReceived 0 from exiting process\b|"
    r"\brun_stop\b.*(?:\"status\": \"success\"|\"success\": true)|"
    r"^\+ ret_code=0\s*$|"  # a run script's trace of its command's exit status
    r"\b100%\s*\|.*?\|\s*(?P<bar>\d+)/(?P=bar)\b"
)
"""A line saying the run (or one process of it) ended well. `destroy_process_group() was not
called before program exit` is printed by a process reaching its normal exit; a platform's
status changing to Completed, a test harness's `--- PASS:` are the run's verdict."""

AT_TOTAL = re.compile(
    r"\b(?:epoch|step|iter(?:ation)?)\b\D{0,3}(\d+)\s*/\s*\1\b.*\b(?:\w+_)?loss\b"
)
"""Lower-cased: a step or epoch counter at its total, with its loss (`Epoch 3/3 … loss 0.1`,
`step:1480/1480 val_loss:3.2786`)."""
_COMPLETION_WORDS = any_of(
    ("exit", "succe", "done waiting", "reached", "training", "train_runtime", "destroy",
     "status", "--- pass", "100%", "ret_code")
)  # fmt: skip
"""A word every `COMPLETION` line holds, lower-cased: most lines are passed over with this one
search (`COMPLETION`'s case-insensitive groups cost ten times more)."""


def completes(text: str) -> bool:
    """Whether a line is a completion line (`COMPLETION`, `AT_TOTAL`)."""
    lower = text.lower()
    if _COMPLETION_WORDS.search(lower) and COMPLETION.search(text):
        return True
    return "loss" in lower and "/" in lower and bool(AT_TOTAL.search(lower))


FINAL_EPOCH = re.compile(r"(?i:\bepoch\b\W{0,3}(?P<last>[1-9]\d*)\s*/\s*(?P=last)\b)")
"""The last epoch by its own count (`=== EPOCH 199/199 ===`, Keras's `Epoch 5/5`). It proves
the run ended well only once a metric line reports on it (`METRIC`): a header alone may be
where a killed run stopped."""
METRIC = re.compile(r"(?i:\b(?:loss|acc(?:uracy)?|iou|eval|val_\w+)\b\W{0,3}(?:\w+\W{1,3})?\d)")

PROGRESS = re.compile(
    r"(?i:\b(?:step|iter(?:ation)?|epoch|batch|global_step)\b\s*[:=#]?\s*\[?\d+)|"
    r"\d+%\s*\||\b\d+/\d+\b.*(?:it/s|s/it|ms/step|s/step)|(?i:\bloss\b\s*[:=]?\s*-?\d)"
)
"""A line that reports training going on (a step, an epoch, a progress bar, a loss)."""

TOPICS = (
    ("rendezvous_timeout", re.compile(r"c10d|TCPStore|[Rr]endezvous|MASTER_ADDR|client socket")),
    ("nccl_system_error", re.compile(r"NCCL|ncclComm")),
    (
        "tf_cluster_error",
        re.compile(
            r"run_std_server|tf\.(?:distribute\.)?(?:train\.)?Server\b|/job:\w+/|ClusterSpec|"
            r"distributed_runtime/"
        ),
    ),
    # Open MPI's component framework too (`MCA parameter`, `plm_rsh_agent`, `btl_tcp…`)
    (
        "mpi_error",
        re.compile(r"\bMPI|ORTE|\bPMIx?\b|prterun|mpirun|mpiexec|\bMCA\b|\b(?:plm|btl|pml)_"),
    ),
    (
        "cuda_oom",
        re.compile(r"(?i:(?:could not|failed to|cannot|unable to) allocate.*(?:cuda|gpu|device))"),
    ),
    (
        "user_code_error",
        re.compile(
            r"(?i:\bno such file or directory\b|\bcould not (?:locate|find)\b.*\b(?:file|dir)|"
            r"\b(?:file|path|directory)\b.{0,80}\bdoes not exist\b)"
        ),
    ),
)
"""What a severe line no rule names is about, by its subsystem's words (for a log that stops on
it): the store the ranks meet at, NCCL, a framework's cluster servers, MPI, the GPU's
allocator; last, a file the script expected and did not find (its path is the script's)."""

TAIL_LINES = 10
"""How many of a log's last lines (with text) count as "where it stops"."""


@dataclass(frozen=True)
class Severe:
    """A line worth a look: how severe (`severity`) and where."""

    severity: int
    line: Line

    @property
    def where(self) -> Evidence:
        return self.line.where


def _noise(line: Line) -> bool:
    """A traceback's context lines, and what healthy runs print too (`doctor_rules._NOISE`;
    NCCL's WARN lines are read by `severity`)."""
    text = line.text
    if not text.strip() or text[:1].isspace():
        return True
    return bool(_NOISE.search(text)) and "NCCL WARN" not in text


_WORTH_WORDS = any_of(
    ("rror", "fail", "abort", "errno", "exit", "kill", "sig", "fatal", "panic", "core dump",
     "warn", "time", "unable", "could not", "cannot", "can't", "refused", "denied", "no space",
     "memory", "unreachable", "died", "lost", "exception", "traceback", "fault", "illegal",
     "critical", "severe", "unauthori", "forbidden", "authentication")
)  # fmt: skip
_GLOG_SEVERE = re.compile(r"\b[EF]\d{3,4} \d\d:\d\d")


def _worth_reading(text: str) -> bool:
    """Words (lower-cased) or tags at least one severe line has: a line with none is not read
    further."""
    return bool(_WORTH_WORDS.search(text.lower()) or _GLOG_SEVERE.search(text))


def severe_lines(streams: Iterable[Stream], limit: int = 5) -> list[Severe]:
    """The most severe lines read, worst first, then in the order they came (the first error is
    usually the one that matters); lines of the same shape once each."""
    found: list[Severe] = []
    for stream in streams:
        for line in stream.lines:
            if not _worth_reading(line.text) or _noise(line):
                continue
            level = read(line.text).severity
            if level >= ERROR:
                found.append(Severe(level, line))
    found.sort(key=lambda s: (-s.severity, s.line.order))
    out, shapes = [], set()
    for s in found:
        shape = re.sub(r"\d+", "#", read(s.line.text).body)
        if shape not in shapes:
            shapes.add(shape)
            out.append(s)
        if len(out) >= limit:
            break
    return out


def _tail(stream: Stream) -> list[Line]:
    return [line for line in stream.lines[-4 * TAIL_LINES :] if line.text.strip()][-TAIL_LINES:]


def stopped_on(stream: Stream) -> Severe | None:
    """The worst line among a log's last lines when nothing after it shows the run going on or
    ending well (a progress line, a completion line): the log stopped on it. An exception
    Python ignored at exit (`Exception ignored in: …` and its traceback) is shutdown noise."""
    worst: Severe | None = None
    ignored = ended = False
    final_epoch = False
    for line in _tail(stream):
        text = line.text
        if text.startswith("Exception ignored in"):
            ignored = True
            continue
        if ignored:
            ignored = text[:1].isspace() or text.startswith("Traceback")
            continue  # its traceback, up to and with its last line
        said = read(text)
        level = said.severity
        if said.level == NOTICE and said.words >= ERROR and not ended:
            level = ERROR  # a warning that something failed, and then nothing: it mattered
        ends = completes(text) or bool(final_epoch and METRIC.search(text))
        ended = ended or ends  # after the run's end, a warning of its tear-down stays a warning
        final_epoch = final_epoch or bool(FINAL_EPOCH.search(text))
        if ends or (PROGRESS.search(text) and level < ERROR):
            worst = None  # the run went on (or ended well) after what came before
            continue
        if _noise(line):
            continue
        if level >= ERROR and (worst is None or level > worst.severity):
            worst = Severe(level, line)
    return worst


def ends_in_traceback(stream: Stream) -> bool:
    """Whether a log stops inside a Python traceback, before its exception's line (a paste or a
    log cut there): only its frames (`  File "…", line N`, their code) after `Traceback`."""
    for line in reversed(stream.lines[-4 * TAIL_LINES :]):
        text = line.text
        if not text.strip():
            continue
        if text.startswith("Traceback (most recent call last)"):
            return True
        if not (text[:1].isspace() or text.startswith('File "')):
            return False
    return False


def topic(text: str) -> str:
    """The cause a severe line's subsystem suggests (`TOPICS`), else `unknown_failure`."""
    return next((cause for cause, words in TOPICS if words.search(text)), "unknown_failure")


def last_topic(stream: Stream) -> str:
    """The cause a log's last lines suggest by their subsystem's words (the frames of the
    traceback a process died printing, the last thing it was doing), else `unknown_failure`."""
    return topic("\n".join(line.text for line in _tail(stream)))


def completion(streams: Iterable[Stream]) -> Line | None:
    """A completion line with nothing severe after it in its log (the last such line)."""
    found: Line | None = None
    for stream in streams:
        reported = False  # a metric line after the line read (the final epoch reported on)
        for line in reversed(stream.lines):
            if completes(line.text) or (reported and FINAL_EPOCH.search(line.text)):
                if stopped_on(stream) is None:
                    found = line if found is None or line.order > found.order else found
                break
            reported = reported or bool(METRIC.search(line.text))
    return found


def progressing(streams: Iterable[Stream]) -> Line | None:
    """For a running job: the last progress line, when some log's last lines are progress that
    advances (two or more progress lines, different numbers) and no log stops on severe lines."""
    last: Line | None = None
    for stream in streams:
        if stopped_on(stream) is not None:
            return None
        tail = _tail(stream)
        steps = [line for line in tail if PROGRESS.search(line.text)]
        if len(steps) >= 2 and tail and tail[-1] is steps[-1]:
            numbers = {tuple(re.findall(r"\d+", line.text)) for line in steps}
            if len(numbers) > 1 and (last is None or steps[-1].order > last.order):
                last = steps[-1]
    return last
