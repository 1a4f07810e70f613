"""The fields of a progress line: counters, key–value pairs, a dict, a table row.

What `progress_line` reads a line with; no judgment of what the fields mean beyond which key is a
counter (tui/logs/progress_names.py says which metric, evaluation or training).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from tui.logs import progress_names as names
from tui.logs.progress_gate import SPLIT_ROW

NUM = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)(?![a-z])"
NUM_SPAN = re.compile(NUM, re.IGNORECASE)
_PAIR = re.compile(
    r"(?:(?<![\w.@\\-])|(?<=\d_)|(?<=\.\.)|(?<=--))(?<![^\d]/)"  # `....Epoch 0`, `---Iteration: 1`
    r"(?P<key>[A-Za-z][\w.@/-]*(?:'s)?(?: [A-Za-z][\w.@/-]*(?:'s)?){0,3})"
    r"(?:\s*\((?P<note>[^()]{0,30})\))?(?:\s*[:=#]\s*|\s+|(?=\[))\[?\s*"
    rf"(?P<value>{NUM})(?P<unit>%|[A-Za-z]{{1,3}}\b)?(?:\s*/\s*(?P<total>\d+)(?:\.0+(?!\d))?)?"
    r"(?!\.\d|[a-z0-9]|_(?![a-z]+:)|:\d|/(?![A-Za-z_]\w*=))",
    re.IGNORECASE,
)
_DOUBLE = re.compile(
    r"\[\s*(?P<e>\d+)\s*(?:/\s*(?P<es>\d+)\s*)?\](?:\s*,?\s*)[\[(]\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)\s*[\])]"
)
_LABEL = re.compile(
    r"\b(?:train(?:ing)?|epoch)\s*:?\s*(?P<e>\d+)(?:\s*/\s*(?P<es>\d+))?\s*(?:\(\s*\d+%\))?\s*"
    r"\[\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)",
    re.IGNORECASE,
)
_EPOCH_TAIL = re.compile(
    r"\bepoch\s*[:#]?\s*(?P<e>\d+)\s*(?:/\s*(?P<es>\d+))?\s*[:,]?\s+(?P<i>\d+)\s*/\s*(?P<n>\d+)\b",
    re.IGNORECASE,
)
_NEPOCH = re.compile(
    r"(?<![\w.])(?:(?P<e>\d+)epoch|epoch(?P<e2>\d+))\b|(?:^|(?<=:))\s*(?P<e3>\d+)(?:-|\s+)epoch\b"
    r"(?!\s*[:=]?\s*\d)(?:\s*\(\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)\s*\))?",
    re.IGNORECASE,
)
"""`3epoch`, `epoch3`; `0 epoch: start training`, `INFO:0-epoch (4/178643): total loss …`: a line
(or a record after its level) led by its epoch's number, then the word (and the step within it);
not `37 epoch: 1`."""
_EPOCH_PAIR = re.compile(
    r"\bepoch\s*:?\s*\[?\s*(?P<e>\d+)\s*(?:/\s*(?P<es>\d+)\s*)?\]\s*\[\s*(?P<i>\d+)\s*"
    r"(?:[/:]\s*(?P<n>\d+)\s*)?\]",
    re.IGNORECASE,
)
"""`Epoch: [0][50]`, `[Epoch 1/500][ 100:391]`: the epoch and the step within it."""
_EPOCH_BOX = re.compile(
    r"\bepoch\s*:?\s*\[\s*(?P<e>\d+)\s*(?:(?:/|of)\s*(?P<es>\d+)\s*)?\]", re.IGNORECASE
)
"""`Epoch[0]`, `Finished Epoch[ 1 of 15]`: the epoch in brackets glued to its word."""
_KEY_AHEAD = r"(?=[A-Za-z][\w.@/'-]*(?: [A-Za-z][\w.@/'-]*){0,3}\s*[:=]\s*[-+.\d])"
"""What follows is a `key: value` pair (a key of up to four words)."""
_ROUND = re.compile(rf"(?:^|(?<=\s))\[(?P<i>\d+)\]\s+{_KEY_AHEAD}")
"""`[936] eval_accuracy=…`, `[12]\ttrain-rmse:…`, `[210]\ttraining's binary_logloss: …`: a
bracketed whole number that leads the line's key–value pairs is the round they report (clu's
metric writers, XGBoost, LightGBM)."""
_UNIT_COUNT = re.compile(
    r"(?<![\w/.])(?P<i>\d+)\s*/\s*(?P<n>\d+)\s+"
    r"(?P<unit>batch(?:es)?|steps?|iter(?:ation)?s?|epochs?)\b",
    re.IGNORECASE,
)
"""`200/ 2983 batches`, `40/100 steps`: a count named by the unit after it (batches count
within the epoch); epochs only leading the line or announced (`Completed 1/1000 epochs`)."""
_TAIL_COUNT = re.compile(
    r"(?:(?P<lead>^\s*[\[(])|(?<=\s)(?<![:=#]\s)\[)\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)\s*[\])]"
    r"(?(lead)\s+(?=[A-Za-z])|\s*$)"
)
"""`loss: 0.711  acc: 46.0 [   50/66045]`, `(1/62) LR: … | Loss: 0.513`: a bracketed count with
no word, ending the line after its values or opening it (the samples or batches of the epoch);
not a key's value (`batch= [51/3503]`)."""
_PERCENT_COUNT = re.compile(r"\[\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)\s*\(\s*\d+(?:\.\d+)?%\s*\)\s*\]")
"""`Percent:[0/6751 (0%)]`: the samples of the epoch done, with their share (PyTorch's MNIST
example's count), whatever key is before it."""
_LOSS_LAST = re.compile(rf"(?<![\w.])(?P<value>{NUM})\s+loss\.?\s*$", re.IGNORECASE)
"""`Batch: 10 ended with 0.468 loss.`: a sentence that ends with the loss, its value first."""
_ROW_LEAD = re.compile(rf"^(?P<i>\d+)(?:\s+\|\s|:\s+{_KEY_AHEAD})")
"""`10 | loss 9.37 | lr 3e-04`: a row of `|` cells whose first cell is a bare whole number;
`300:\tlearn: 0.155\ttest: 0.138`: a bare whole number and a colon leading `key: value` pairs."""
_VALUE_FIRST = re.compile(
    rf"^\s*(?:(?P<i>\d+)\s+)?(?P<value>{NUM})\s+(?P<key>[A-Za-z][A-Za-z ]{{0,30}}?)\s*$"
)
"""A cell whose value comes before its name (`11.8750 loss`, `0.0001 LR`), the first cell of a
line perhaps led by a bare count (`    1 93.44 s run`)."""
_COUNT_VALUE = re.compile(rf"^\s*(?P<i>\d+):\s*(?P<value>{NUM})\s*$")
"""A values-first lead cell, a count and an unnamed value (`1543: 5.06`), named by its average."""
_AVERAGES = frozenset({"avg", "average", "mean", "running"})
_UNITS = r"(?P<unit>epoch|step|iter(?:ation)?|update|batch)(?:es|s)?"
_AT_COUNT = re.compile(
    r"\b(?:at|after) (?P<n>\d+) (?P<unit>epoch|iter(?:ation)?|update)s?\b", re.IGNORECASE
)
"""`Saving checkpoint at 2 epochs`, `Finished training after 300 epochs`: the counter a message
is at, its unit after it (not `at 56 steps`: a trajectory's or an episode's length is counted in
steps)."""
_GLUED = re.compile(r"(?<![\w.-])(?:iteration|iter|step)(?P<i>\d+)(?=,|\s|$)", re.IGNORECASE)
"""`epoch 0 iteration100, Loss: 2.83`, `{train:epoch1,step2,…}`: a count glued to its word."""
_DONE_COUNT = re.compile(rf"^(?P<n>\d+) {_UNITS} (?:completed|done|finished)\b", re.IGNORECASE)
"""`32 epochs completed in 0.054 hours.`: a count of units a message says are done."""
_UNIT_CELL = re.compile(
    r"(?:^|\|)\s*(?P<i>\d+)\s+(?P<unit>updates|steps|iter(?:ation)?s|batches)\s*(?=\||$)",
    re.IGNORECASE,
)
"""`| epoch 009 | 0045063 updates | …`: a cell of a count and its unit (a global count; the first
such cell, so `0000000 epoch updates` after it is not taken)."""
_EVENTS = frozenset(
    {"start", "starting", "started", "begin", "beginning", "end", "ending", "ended", "finish",
     "finished", "finishing", "complete", "completed", "done"}
)  # fmt: skip
"""Words of a sentence that lead the counter it announces (`Start epoch 0`, `Ending
global_step: 99`): not the counter's qualifiers, as `start` is in `start_epoch` (a setting)."""
_BORDERED = re.compile(rf"^\|\s*(?P<key>[A-Za-z][\w ./-]{{0,40}}?)\s*\|\s*(?P<value>{NUM})\s*\|$")
"""`|   Epoch |   33 |`: one key and its value between borders (a logger's key–value table)."""
BAR = re.compile(
    r"(?P<pct>\d{1,3})%\s*(?:\\?\|[^|]*\\?\|)?\s*(?P<n>\d+(?:\.\d+)?)/(?P<total>\d+(?:\.\d+)?)\s*"
    r"(?:\[(?P<elapsed>[\d:]+)<(?P<left>[\d:]+|\?),\s*(?P<rate>[\d.]+|\?)\s*(?P<unit>[\w/]+)"
    r"(?:,\s*(?P<postfix>.*?))?\]|(?P<clock>[\d:]+))\s*$"
)
GLUED_BAR = re.compile(
    r"(?P<pct>\d{1,3})%\s*(?:\\?\|[^|]*\\?\|)?\s*(?P<n>\d+(?:\.\d+)?)/(?P<total>\d+(?:\.\d+)?)\s*"
    r"\[(?P<elapsed>[\d:]+)<(?P<left>[\d:]+|\?),\s*(?P<rate>[\d.]+|\?)\s*(?P<unit>[\w/]+)"
    r"(?:,\s*(?P<postfix>[^\]]*))?\](?=[^\s\]])"
)
"""A bar another logger's line was glued to, with no line break between them (`… 1.65s/it]/home/…
/pin_memory.py:57: DeprecationWarning: …`): the bar up to its closing bracket."""
_NEXT_VALUE = re.compile(
    rf"(?:(?P<colon>:)\s*|\s+)(?P<value>{NUM})(?![\w.%/:(\[])(?!\s?(?:ms|secs?|min|hrs?|s)\b)",
    re.IGNORECASE,
)
"""A second bare number right after a key's first (`Train loss 3 9.564240`, `Validation loss
0: 37.06`): which of the two the key names, one line cannot say (after a `:`: the second). Not
a time (`loss 8.6864 9240 ms/iter`: the key's value, then how long the step took)."""
_TIME_UNIT = re.compile(r"\s?(?:s|secs?|seconds|ms|min|h|hrs?)\b", re.IGNORECASE)
"""A value in seconds, minutes or hours (`batch_cost: 1.75327 sec`) is a time, no metric."""
_EXTRA = ("global", "acc", "total", "train", "training", "learning", "num", "optimizer", "opt",
          "id", "idx", "index", "no", "completed", "done", "finished")  # fmt: skip
"""Words that qualify a counter's key, not which counter it is (`global_step`, `batch_id`)."""
_SCALES = {"k": 1_000, "K": 1_000, "M": 1_000_000}
"""A count's suffix that scales it (`Step: 1k`)."""
_THOUSANDS = re.compile(r"(?:,\d{3})+(?![\d.])")
WORD = re.compile(r"[A-Za-z]+")


Span = tuple[int, int] | None
"""Where in the line a number stood (what tui/logs/progress_shapes reads the next lines by)."""


@dataclass
class Found:
    pairs: list[tuple[str, float, str, Span]] = field(default_factory=list)  # key, value, note
    spans: dict[str, Span] = field(default_factory=dict)  # step, total, epoch, epochs
    value_spans: dict[str, Span] = field(default_factory=dict)  # a metric's, by final name
    epoch: float | None = None
    epochs: int | None = None
    step: int | None = None
    step_rank: int = 99
    total: int | None = None
    position: bool = False  # step/total count within the epoch
    structured: bool = False  # any key is a metric (dict, postfix, table)
    evaluating: bool = False
    member: bool = False  # one member of a record printed a key a line (`"main/loss/loc": 0.78`)
    inverted: bool = False  # a bar's rate is printed as s/it
    unsure: list[tuple[str, float, float, str, Span, Span]] = field(default_factory=list)
    """`key N value` pairs: the key, the two numbers, the note, their spans (`_NEXT_VALUE`)."""

    def count(self, rank: int, step: int, total: int | None, position: bool = False,
              spans: tuple[Span, Span] = (None, None)) -> None:  # fmt: skip
        if rank < self.step_rank:
            self.step, self.step_rank, self.total, self.position = step, rank, total, position
            self.spans["step"], self.spans["total"] = spans

    def set_epoch(self, epoch: float, epochs: int | None, spans: tuple[Span, Span]) -> None:
        self.epoch, self.spans["epoch"] = epoch, spans[0]
        if epochs is not None:
            self.epochs, self.spans["epochs"] = epochs, spans[1]


def _at(m: re.Match, group: str, offset: int) -> Span:
    if m[group] is None:
        return None
    a, b = m.span(group)
    return a + offset, b + offset


def text_fields(text: str, found: Found, offset: int = 0) -> None:
    """Counters and pairs of free text (or of a bar's description and postfix, `offset` into
    the line)."""
    if text[:1].isdigit() and (m := SPLIT_ROW.match(text)):
        found.count(8, int(m["i"]), None, spans=(_at(m, "i", offset), None))
        found.pairs.append((f"{m['key']} loss", float(m["value"]), "", _at(m, "value", offset)))
        return
    if (
        (m := _DOUBLE.search(text))
        or (m := _LABEL.search(text))
        or (m := _EPOCH_TAIL.search(text))
        or ("[" in text and (m := _EPOCH_PAIR.search(text)))
    ):
        epochs = int(m["es"]) if m["es"] else None
        found.set_epoch(float(m["e"]), epochs, (_at(m, "e", offset), _at(m, "es", offset)))
        spans = (_at(m, "i", offset), _at(m, "n", offset))
        found.count(6, int(m["i"]), int(m["n"]) if m["n"] else None, position=True, spans=spans)
    elif m := _EPOCH_BOX.search(text):
        epochs = int(m["es"]) if m["es"] else None
        found.set_epoch(float(m["e"]), epochs, (_at(m, "e", offset), _at(m, "es", offset)))
    elif m := _NEPOCH.search(text):
        group = next(g for g in ("e", "e2", "e3") if m[g])
        found.set_epoch(float(m[group]), None, (_at(m, group, offset), None))
        if m["i"] is not None:
            spans = (_at(m, "i", offset), _at(m, "n", offset))
            found.count(6, int(m["i"]), int(m["n"]), position=True, spans=spans)
    if (m := _ROUND.search(text)) or (m := _ROW_LEAD.match(text)) or (m := _GLUED.search(text)):
        found.count(8, int(m["i"]), None, spans=(_at(m, "i", offset), None))
    text = _BRACED.sub(_unbraced, text) if "{" in text else text
    counted = False
    for m in _UNIT_COUNT.finditer(text) if "/" in text else ():
        spans = (_at(m, "i", offset), _at(m, "n", offset))
        unit, before = m["unit"].lower(), text[: m.start()].split()
        if unit[0] == "e" and found.epoch is None and (not before or before[-1].lower() in _EVENTS):
            found.set_epoch(float(m["i"]), int(m["n"]), spans)  # `1/100 epoch G_loss : 5.37`
        elif unit[0] != "e" and not counted:
            counted = True
            found.count(9 if unit[0] == "b" else 2, int(m["i"]), int(m["n"]), unit[0] == "b", spans)
    if not counted and "|" in text and (m := _UNIT_CELL.search(text)):
        within = m["unit"][0].lower() == "b"
        found.count(9 if within else 2, int(m["i"]), None, within, (_at(m, "i", offset), None))
    elif (
        not counted
        and found.step is None
        and ("[" in text or text.lstrip()[:1] == "(")
        and ((m := _TAIL_COUNT.search(text)) or (m := _PERCENT_COUNT.search(text)))
    ):
        spans = (_at(m, "i", offset), _at(m, "n", offset))
        found.count(8, int(m["i"]), int(m["n"]), position=True, spans=spans)
    if (("at " in text or "after " in text) and (m := _AT_COUNT.search(text))) or (
        text[:1].isdigit() and (m := _DONE_COUNT.match(text))
    ):
        _unit_count(m, found, offset)
    if text.lstrip()[:1].isdigit() and text.count(",") >= 2 and _values_first(text, found, offset):
        return
    if text[:1] == "|" and (m := _BORDERED.match(text)) is not None:
        key, value, words = m["key"], m["value"], names.words_of(m["key"])
        spans = (_at(m, "value", offset), None)
        if len(words) == 3 and words[0] == "total" and words[2] == "steps" and _own(words[1]):
            words = ("total", "timesteps")  # a logger's table of values so far (`total_env_steps`)
        if counter(words, key, value, None, found, "", spans):
            return
        name = names.metric_name(key)
        # One key a line: a part of a loss (`LossPi`) or an episode statistic alone on its
        # line cannot be told from the training loss; only a whole loss is taken.
        if name is not None and names.is_whole_loss(name) and (v := number(value)) is not None:
            found.pairs.append((key, v, "", spans[0]))
        return
    for m in _PAIR.finditer(text):
        key, value, total = m["key"], m["value"], m["total"]
        if ". " in key:
            key = key[key.rindex(". ") + 2 :]  # `… 0 sec. train epoch 1`: a sentence ended
        words = names.words_of(key)
        note = (m["note"] or "").lower()
        spans = (_at(m, "value", offset), _at(m, "total", offset))
        t = _THOUSANDS.match(text, m.end()) if value.isdigit() and value[0] != "0" else None
        if t and counter(words, key, value + t[0].replace(",", ""), total, found, note):
            continue  # `iter:   8,600`: a count with thousands commas (no span holds it)
        scaled = _scaled(value, m["unit"])
        if scaled is not None and counter(words, key, scaled, total, found, note):
            continue  # `Step: 1k`: a count in thousands, as printed (no span holds it)
        if counter(words, key, value, total, found, note, spans):
            if " at " in key and (after := _AT_VALUE.match(text, m.end())):
                # `Loss at step 1: 8.49`, `Score at iteration 0 is 1.62`: the value is the
                # measure's before `at`
                measure = key[: key.index(" at ")]
                found.pairs.append(
                    (measure, float(after["value"]), note, _at(after, "value", offset))
                )
            continue
        if total is not None:
            continue  # `acc: 51089/65281`: a count, not a metric
        if m["unit"] == "%" and key.lower() in names.SET_WORDS:
            continue  # `Train:   9.17%`: a rate on a data set, of no measure the line names
        if _TIME_UNIT.match(m["unit"] or "") or _TIME_UNIT.match(text, m.end()):
            key = f"{key} sec"  # a time: bookkeeping (tui/logs/progress_names.py)
        value_n = number(value)
        # `loss:0.923080 0`: a value the key's `:` or `=` binds is the key's, whatever follows
        bound = any(c in ":=#" for c in text[m.end("key") : m.start("value")])
        if value_n is not None and not bound and (after := _NEXT_VALUE.match(text, m.end())):
            _two_values(key, value_n, after, found, note, (spans[0], _at(after, "value", offset)))
            continue
        found.pairs.append((key, value_n if value_n is not None else math.nan, note, spans[0]))
    if "loss" in text[-8:].lower() and (m := _LOSS_LAST.search(text)) is not None:
        found.pairs.append(("loss", float(m["value"]), "", _at(m, "value", offset)))


_AT_VALUE = re.compile(rf"(?:\s*:\s*|\s+is\s+)(?P<value>{NUM})(?![\w.])", re.IGNORECASE)
"""The value after a `… at <counter> N`: a `:` or ` is ` and a number."""
_BRACED = re.compile(rf"\{{\s*(?:{NUM})(?:\s*/\s*\d+)?\s*\}}", re.IGNORECASE)
"""`loss : {1.65}`, `epoch: {1/300}`: a value in braces, read as the value (same offsets)."""


def _unbraced(m: re.Match) -> str:
    return " " + m[0][1:-1] + " "


def _scaled(value: str, unit: str | None) -> str | None:
    """`1` with the suffix `k`: `1000`, a count in thousands as printed (else None)."""
    scale, n = _SCALES.get(unit or ""), number(value)
    return str(round(n * scale)) if scale is not None and n is not None else None


def _two_values(key: str, first: float, after: re.Match, found: Found, note: str,
                spans: tuple[Span, Span]) -> None:  # fmt: skip
    """`key N: value` (the colon binds the value; N, a whole number, is the count it is at),
    else `key N value`: held as unsure, for the stream to prove (tui/logs/progress_line.py)."""
    second = number(after["value"])
    if second is None:
        return
    if after["colon"] is None:
        found.unsure.append((key, first, second, note, *spans))
    elif first.is_integer() and first >= 0:
        found.count(8, int(first), None, spans=(spans[0], None))
        found.pairs.append((key, second, note, spans[1]))


def _unit_count(m: re.Match, found: Found, offset: int) -> None:
    """A count a sentence names by its unit: the epoch, or a step (a batch counts within it)."""
    unit, span = m["unit"].lower(), _at(m, "n", offset)
    if unit == "epoch":
        if found.epoch is None:
            found.set_epoch(float(m["n"]), None, (span, None))
    else:
        found.count(9 if unit == "batch" else 3, int(m["n"]), None, unit == "batch", (span, None))


def _values_first(text: str, found: Found, offset: int) -> bool:
    """Read a line of comma-separated cells, each a value then its name (`    1 93.44 s run,
    11.8750 loss, 0.000000000001 LR, 642.43 GB used`), if it is one: three cells at least, a
    count leading the first only."""
    cells = text.split(",")
    lead = _COUNT_VALUE.match(cells[0])
    matches, at = [], offset + (len(cells[0]) + 1 if lead else 0)
    for cell in cells[1:] if lead else cells:
        if (m := _VALUE_FIRST.match(cell)) is None or (m["i"] is not None and (matches or lead)):
            return False
        matches.append((m, at))
        at += len(cell) + 1
    if len(matches) < 3 - bool(lead):
        return False
    if lead:
        found.count(8, int(lead["i"]), None, spans=(_at(lead, "i", offset), None))
        # `1543: 5.061356, 4.223706 avg loss, …` (Darknet): the value the average is of
        averaged = matches[0][0]["key"].split(" ", 1)
        value = number(lead["value"])
        if len(averaged) == 2 and averaged[0].lower() in _AVERAGES and value is not None:
            found.pairs.append((averaged[1], value, "", _at(lead, "value", offset)))
    for m, at in matches:
        if m["i"] is not None:
            found.count(8, int(m["i"]), None, spans=(_at(m, "i", at), None))
        if (value := number(m["value"])) is not None:
            found.pairs.append((m["key"], value, "", _at(m, "value", at)))
    return True


def counter(words: tuple[str, ...], key: str, value: str, total: str | None, found: Found,
            note: str, spans: tuple[Span, Span] = (None, None)) -> bool:  # fmt: skip
    """Take `key value` as the epoch or a step counter, if it is one: the counter the words
    after a last `at` name in a sentence (`Recording summary at step 0`, `Best model at epoch
    1`; not in a key such as `loss_at_step`)."""
    if " at " in key and "at" in words:
        words = words[len(words) - words[::-1].index("at") :]
    elif " " in key and key[: key.index(" ")].lower() in _EVENTS:
        lead = key.split(" ")
        while len(lead) > 1 and lead[0].lower() in _EVENTS:
            lead.pop(0)
        words = names.words_of(" ".join(lead))
    if "epoch" in words or words == ("ep",):
        indexed = words[0] == "epoch" and set(words[1:]) <= _INDEX_WORDS  # `Epoch_num: 0`
        if (
            words[-1] != "epoch"
            and not indexed
            and any(w not in ("epoch", "ep", "train", "training", "cur", "current") for w in words)
        ):
            return False  # epoch_time, start_epoch
        if any(w in names.BOOKKEEPING for w in words) and not indexed:
            return False  # steps per epoch, max_steps_per_epoch
        if words[-1] == "epoch" and len(words) > 1 and found.epoch is not None:
            return True
        if found.epoch is None and (value_n := number(value)) is not None:
            found.set_epoch(value_n, int(total) if total else None, spans)
        if any(w in names.EVAL_WORDS for w in WORD.findall(note)):
            found.evaluating = True  # Epoch(val) [5][1550/5000]
        return True
    if words == ("i",) and total is not None:
        words = ("iter",)  # `i = 822990 / 973300`: a loop's index, of its total
    if words[-2:] == ("so", "far"):
        words = words[:-2]  # `TimestepsSoFar`: the count so far (OpenAI baselines' logger)
    if total is not None and len(words) == 2 and words[0] in _INDEX_WORDS | {"n"}:
        words = words[1:]  # `n_batch:0/157`: the batch's number, of the epoch's
    rank = None
    extra = _EXTRA
    # `env_step=50000`: a counter of steps of its own kind, under a named global step
    own = len(words) == 2 and words[1] == "step" and _own(words[0])
    if own:
        words = ("step",)
    for word in words:
        if word in names.STEP_KEYS and rank is None:
            rank = names.STEP_KEYS[word]
        elif word in ("cur", "current"):
            rank = 4 if rank is not None and rank <= 2 else rank
        elif word not in extra:
            return False
    if rank is None:
        return False
    if "cur" in words or "current" in words:
        rank = 4
    elif own and words == ("step",):
        rank = 3
    elif "global" in words and found.total is not None and total is None:
        rank = -1  # `STEP: 24/352 -- GLOBAL_STEP: 244300`: the global count, not the epoch's i/n
    count = number(value)
    if count is None or count < 0 or not float(count).is_integer():
        return True
    # a batch counts within its epoch (`[Epoch 4] Batch 10/126`, `Epoch[0] Batch [9100]`)
    found.count(rank, int(count), int(total) if total else None, rank == 9, spans)
    return True


_INDEX_WORDS = frozenset({"num", "no", "idx", "index", "id"})
"""Words that make a counter's name its number (`epoch_num`, `batch_idx`), not another measure."""


def _own(word: str) -> bool:
    """`word` names a kind of step of its own (`env` of `env_step`): no qualifier, bookkeeping
    or evaluation word, and no metric's (`aeloss_step=1.41e+5` is a loss logged per step)."""
    return (
        word not in _EXTRA
        and word not in names.BOOKKEEPING
        and word not in names.EVAL_WORDS
        and not names.is_known(word)
    )


def number(text: str) -> float | None:
    try:
        value = float(text)
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None
