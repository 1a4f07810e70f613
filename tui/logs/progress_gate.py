"""Which log lines can report progress at all: the cheap tests every line passes first (a digit,
a word progress is printed with, not a configuration print), and the lines that only announce
which phase follows (`***** Running Evaluation *****`). Most lines of a log stop here."""

from __future__ import annotations

import re

from tui.logs import progress_names as names

DIGIT = re.compile(r"\d")
MAX_LINE = 20_000
"""Longer lines are not progress (a dump, a binary blob): skipped without a look."""


_PHASE_WORD = re.compile(r"[a-z]{2,}")
_PHASE_WORDS = 6
"""A line that only says which phase follows is short: `***** Running Evaluation *****`,
`Validating...`, `Test results:`, `[INFO] Validation`, `TRAIN`."""


def phase(line: str) -> bool | None:
    """What a line that names a phase and reports nothing says follows: True evaluation
    (validation, test), False training, None neither (most lines: a substring test). A line
    with a metric word (`Validation loss decreased (inf --> 38.3)`) reports, not announces."""
    low = line.lower()
    if ("val" not in low and "test" not in low and "train" not in low) or len(line) > 200:
        return None
    words = _PHASE_WORD.findall(_STAMP_LEAD.sub("", low))
    if not words or len(words) > _PHASE_WORDS or any(names.is_metric_name(w) for w in words):
        return None
    evaluating = any(w in names.EVAL_WORDS for w in words)
    if evaluating == any(w in names.TRAIN_WORDS for w in words):
        return None  # neither, or both (`Will train until validation_1-logloss …`)
    return evaluating


_STAMP_LEAD = re.compile(r"^[\W\d_]*(?:[a-z]\d{4}\b)?[\W\d_]*(?:info|warning|debug)?\b", re.I)


_FLAG = re.compile(r"\b\w+['\"]?(?:=|: )(?:True|False|None)\b")


def settings(line: str) -> bool:
    """The line prints a configuration (`Namespace(batch_size=20, cuda=True, dry_run=False)`,
    `train: weights=yolov5s.pt, rect=False, resume=False`, `Hyperparameters: {'accum_steps': 8,
    …, 'pp': None, …}`): two Python flags or more (`=True`, `: False`, `=None`); its numbers are
    settings, no metric. (Quoted strings are not counted: a logfmt line quotes its message and
    time beside its step and loss.)"""
    if "True" not in line and "False" not in line and "None" not in line:
        return False
    return len(_FLAG.findall(line)) >= 2


SPLIT_ROW = re.compile(
    r"^(?P<i>\d+)\s+(?P<key>train|training|val|valid|validation|eval|test)\s+"
    r"(?P<value>[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf)\s*$",
    re.IGNORECASE,
)
"""`0 train 10.934416`, `250 val 6.1`: a step, the data set and its loss, all the line holds
(build-nanogpt's log file; a key naming only the data set is its loss, as CatBoost's `learn:`)."""


def hinted(line: str) -> bool:
    """The line holds a word progress is printed with (the rest, most lines, is skipped at once:
    chained substring tests on the lower-cased line cost well under a microsecond); a line in
    Chinese is asked in the words read_line translates it to (`验证准确率` is `val acc`)."""
    if not line.isascii() and names.WIDE.search(line) is not None:
        line = names.in_english(line)
    low = line.lower()
    return (
        "loss" in low or "epoch" in low or "step" in low or "iter" in low or "it/s" in low
        or "s/it" in low or "%|" in low or "{" in low or "acc" in low or "lr" in low
        or "cost" in low or "xent" in low or "ep." in low or "up." in low or "mse" in low
        or "learn" in low or "'s " in low or "entropy" in low
        or (low[:1].isdigit() and SPLIT_ROW.match(low) is not None)
        or (low[:1] in ("t", "v") and _SET_ALONE.match(low) is not None)
    )  # fmt: skip


_SET_ALONE = re.compile(r"(?:train|training|val|valid|validation|test)\s*:\s*[-+]?\d*\.\d")
"""`Train: 0.987`: a data set's name and a fraction, all a line says (its loss on that set)."""
