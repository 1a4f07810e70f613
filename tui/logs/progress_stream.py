"""What a stream said before a line (`StreamState`), and what a line reads as by it: the phase
it reports, training or evaluation, beyond its own words (the words leading it; what its count
runs to: an evaluation counts its own batches, `step 10/88` after training's `step 614/614`),
and a count the stream proves (`prove_counts`)."""

from __future__ import annotations

import re

from tui.logs import progress_names as names
from tui.logs.progress_fields import Found, Span
from tui.logs.progress_table import Header


class StreamState:
    """What a log stream said before this line: a table header, an evaluation phase, the epoch."""

    __slots__ = (
        "column",
        "counts",
        "epoch",
        "evaluating",
        "found",
        "header",
        "shift",
        "total",
        "whole_loss",
    )

    def __init__(self) -> None:
        self.header: Header | None = None
        self.evaluating = False
        self.epoch: float | None = None
        self.found: Found | None = None
        """The fields of the last line read, with where their numbers stood."""
        self.shift: int | None = None
        """How far the last line's fields are from its start (None: escape codes were cut)."""
        self.column: tuple[int | None, str | None] | None = None
        """Where the last line's `:` stood and its bullet, if it was one `key: value` alone."""
        self.counts: dict[str, float] = {}
        """The first of a key's two bare numbers (`Train loss 3 9.56`), by key, last line."""
        self.total: int | None = None
        """What training's count runs to (`step 610/614`): an evaluation's differs (`10/88`)."""
        self.whole_loss = False
        """The stream has printed a whole loss (`total loss: 4119.9`, `Loss 0.3977 (0.6083)`): a
        part alone on a later line (`conf loss: 16.6`) is one term of it, not the loss."""


def eval_lead(line: str, found: Found, sets: frozenset[str]) -> bool:
    """The line's lead (before its first metric) names an evaluation phase."""
    cut = len(line)
    for key, *_ in found.pairs:
        if names.is_known(key.lower()) or key.lower() in sets:
            at = line.find(key)
            cut = at if at >= 0 else cut
            break
    lead = line[:cut]  # its own words: not `test.py:108`'s, a source file's name
    return any(m[0].lower() in names.EVAL_WORDS for m in _OWN_WORD.finditer(lead))


def train_lead(line: str) -> bool:
    """The line's head says it reports training: a word of its own (`[Training]`, `Train:`),
    not part of a logger's or module's name (`ngboost_train - INFO - RMSE: …`)."""
    return any(m[0].lower() in names.TRAIN_WORDS for m in _OWN_WORD.finditer(line[:80]))


_OWN_WORD = re.compile(r"(?<!\w)(?<!\w\.)[A-Za-z]+(?!\w|\.\w)")


def set_keys(found: Found) -> frozenset[str]:
    """Keys that name only a data set, where the line names both a training and an evaluation
    one (`learn: 0.155  test: 0.138`), or one alone with a fraction (`Train: 0.987`, then
    `Validation: 51.78` on the next line; not `Train: 50000`, a count): each is the line's one
    measure, the loss, on that set."""
    if len(found.pairs) == 1:
        key, value, *_ = found.pairs[0]
        data_set = key.lower() in names.TRAIN_WORDS | names.EVAL_WORDS
        return frozenset({key.lower()}) if data_set and not value.is_integer() else frozenset()
    if len(found.pairs) < 2:
        return frozenset()
    keys = {k.lower() for k, *_ in found.pairs}
    if any(names.is_loss(k) for k in keys):
        return frozenset()  # `Train: 9.17% loss= 0.0000 | Test: …`: the loss has its own key
    train, evaluation = keys & names.TRAIN_WORDS, keys & names.EVAL_WORDS
    return frozenset(train | evaluation) if train and evaluation else frozenset()


def own_count(found: Found, state: StreamState, line: str) -> bool:
    """In an evaluation phase, the line counts to a total of its own (its batches), not to the
    total training's lines counted to: it goes on reporting evaluation."""
    return (
        found.total is not None and state.total is not None and found.total != state.total
        and not train_lead(line)
    )  # fmt: skip


def prove_counts(found: Found, counts: dict[str, float], line: str) -> None:
    """`key N value` (`Train loss 3 9.564240 Grad Norm 13.827114`): N is the count the line is
    at and the value the key's once proven, else neither is read. Proven by the stream (N a
    whole number above the last line's N for that key, the value not whole: a loss that counts
    up in whole numbers is none; `counts` holds each key's last N) or by the line's format (N
    printed with no point, the value with as many decimals as another metric of the line)."""
    for key, first, second, note, at, span in found.unsure:
        last = counts.get(key)
        if len(counts) < 64 or last is not None:
            counts[key] = first
        stream = last is not None and first > last and not second.is_integer()
        if not first.is_integer() or not (stream or _same_format(line, at, span, found)):
            continue
        found.count(8, int(first), None, spans=(at, None))
        found.pairs.append((key, second, note, span))


def _same_format(line: str, at: Span, span: Span, found: Found) -> bool:
    """The number at `at` has no point, and the one at `span` as many decimals as a metric's."""
    if at is None or span is None or "." in line[at[0] : at[1]]:
        return False
    decimals = _decimals(line[span[0] : span[1]])
    return decimals > 0 and any(
        s is not None and _decimals(line[s[0] : s[1]]) == decimals for *_, s in found.pairs
    )


def _decimals(text: str) -> int:
    """Digits after the point of a number printed plainly (0: none, or an exponent)."""
    if "." not in text or "e" in text or "E" in text:
        return 0
    return len(text) - text.index(".") - 1
