"""The fields of a progress line: counters, key–value pairs, a dict, a table row.

What `progress_line` reads a line with; no judgment of what the fields mean beyond which key is a
counter (tui/logs/progress_names.py says which metric, evaluation or training).
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass, field

from tui.logs import progress_names as names

NUM = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)(?![a-z])"
NUM_SPAN = re.compile(NUM, re.IGNORECASE)
_PAIR = re.compile(
    r"(?<![\w.@\\-])(?<![^\d]/)"
    r"(?P<key>[A-Za-z][\w.@/-]*(?:'s)?(?: [A-Za-z][\w.@/-]*(?:'s)?){0,3})"
    r"(?:\s*\((?P<note>[^()]{0,30})\))?(?:\s*[:=#]\s*|\s+)\[?\s*"
    rf"(?P<value>{NUM})(?P<unit>%|[A-Za-z]{{1,3}}\b)?(?:\s*/\s*(?P<total>\d+))?"
    r"(?!\.\d|[a-z0-9_]|:\d|/(?![A-Za-z_]\w*=))",
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
_NEPOCH = re.compile(r"(?<![\w.])(?:(?P<e>\d+)epoch|epoch(?P<e2>\d+))\b", re.IGNORECASE)
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
    r"(?<![\w/.])(?P<i>\d+)\s*/\s*(?P<n>\d+)\s+(?P<unit>batch(?:es)?|steps?|iter(?:ation)?s?)\b",
    re.IGNORECASE,
)
"""`200/ 2983 batches`, `40/100 steps`: a count named by the unit after it (batches count
within the epoch)."""
_ROW_LEAD = re.compile(rf"^(?P<i>\d+)(?:\s+\|\s|:\s+{_KEY_AHEAD})")
"""`10 | loss 9.37 | lr 3e-04`: a row of `|` cells whose first cell is a bare whole number;
`300:\tlearn: 0.155\ttest: 0.138`: a bare whole number and a colon leading `key: value` pairs."""
_VALUE_FIRST = re.compile(
    rf"^\s*(?:(?P<i>\d+)\s+)?(?P<value>{NUM})\s+(?P<key>[A-Za-z][A-Za-z ]{{0,30}}?)\s*$"
)
"""A cell whose value comes before its name (`11.8750 loss`, `0.0001 LR`), the first cell of a
line perhaps led by a bare count (`    1 93.44 s run`)."""
_UNITS = r"(?P<unit>epoch|step|iter(?:ation)?|update|batch)(?:es|s)?"
_AT_COUNT = re.compile(r"\bat (?P<n>\d+) (?P<unit>epoch|iter(?:ation)?|update)s?\b", re.IGNORECASE)
"""`Saving checkpoint at 2 epochs`, `… at 1500 iterations`: the counter a message is at, its
unit after it (not `at 56 steps`: a trajectory's or an episode's length is counted in steps)."""
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
WORD = re.compile(r"[A-Za-z]+")
_DICT_MAX = 8_000
_DICT_VALUE = re.compile(rf"""(["'])(?P<k>[^"'\n]{{1,80}})\1\s*:\s*["']?(?P<v>{NUM})""")


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
    inverted: bool = False  # a bar's rate is printed as s/it

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
    if (m := _DOUBLE.search(text)) or (m := _LABEL.search(text)) or (m := _EPOCH_TAIL.search(text)):
        epochs = int(m["es"]) if m["es"] else None
        found.set_epoch(float(m["e"]), epochs, (_at(m, "e", offset), _at(m, "es", offset)))
        spans = (_at(m, "i", offset), _at(m, "n", offset))
        found.count(6, int(m["i"]), int(m["n"]), position=True, spans=spans)
    elif m := _EPOCH_BOX.search(text):
        epochs = int(m["es"]) if m["es"] else None
        found.set_epoch(float(m["e"]), epochs, (_at(m, "e", offset), _at(m, "es", offset)))
    elif m := _NEPOCH.search(text):
        group = "e" if m["e"] else "e2"
        found.set_epoch(float(m[group]), None, (_at(m, group, offset), None))
    if (m := _ROUND.search(text)) or (m := _ROW_LEAD.match(text)):
        found.count(8, int(m["i"]), None, spans=(_at(m, "i", offset), None))
    if "/" in text and (m := _UNIT_COUNT.search(text)):
        within = m["unit"].lower().startswith("batch")
        spans = (_at(m, "i", offset), _at(m, "n", offset))
        found.count(9 if within else 2, int(m["i"]), int(m["n"]), within, spans)
    elif "|" in text and (m := _UNIT_CELL.search(text)):
        within = m["unit"].lower().startswith("batch")
        found.count(9 if within else 2, int(m["i"]), None, spans=(_at(m, "i", offset), None))
    if ("at " in text and (m := _AT_COUNT.search(text))) or (
        text[:1].isdigit() and (m := _DONE_COUNT.match(text))
    ):
        _unit_count(m, found, offset)
    if text.lstrip()[:1].isdigit() and text.count(",") >= 2 and _values_first(text, found, offset):
        return
    if text[:1] == "|" and (m := _BORDERED.match(text)) is not None:
        key, value = m["key"], m["value"]
        spans = (_at(m, "value", offset), None)
        if counter(names.words_of(key), key, value, None, found, "", spans):
            return
        name = names.metric_name(key)
        # One key a line: a part of a loss (`LossPi`) or an episode statistic alone on its
        # line cannot be told from the training loss; only a whole loss is taken.
        if name is not None and names.is_whole_loss(name) and (v := number(value)) is not None:
            found.pairs.append((key, v, "", spans[0]))
        return
    for m in _PAIR.finditer(text):
        key, value, total = m["key"], m["value"], m["total"]
        if "'s" in key:
            key = key.replace("'s", "")  # `training's binary_logloss`: the training set's
        words = names.words_of(key)
        note = (m["note"] or "").lower()
        spans = (_at(m, "value", offset), _at(m, "total", offset))
        if counter(words, key, value, total, found, note, spans):
            continue
        if total is not None:
            continue  # `acc: 51089/65281`: a count, not a metric
        value_n = number(value)
        found.pairs.append((key, value_n if value_n is not None else math.nan, note, spans[0]))


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
    matches, at = [], offset
    for cell in text.split(","):
        if (m := _VALUE_FIRST.match(cell)) is None or (m["i"] is not None and matches):
            return False
        matches.append((m, at))
        at += len(cell) + 1
    if len(matches) < 3:
        return False
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
        if words[-1] != "epoch" and any(
            w not in ("epoch", "ep", "train", "training", "cur", "current") for w in words
        ):
            return False  # epoch_time, start_epoch
        if any(w in names.BOOKKEEPING for w in words):
            return False  # steps per epoch, max_steps_per_epoch
        if words[-1] == "epoch" and len(words) > 1 and found.epoch is not None:
            return True
        if found.epoch is None and (value_n := number(value)) is not None:
            found.set_epoch(value_n, int(total) if total else None, spans)
        if any(w in names.EVAL_WORDS for w in WORD.findall(note)):
            found.evaluating = True  # Epoch(val) [5][1550/5000]
        return True
    rank = None
    extra = ("global", "acc", "total", "train", "training", "learning", "num", "optimizer", "opt")
    # `env_step=50000`: a counter of steps of its own kind, under a named global step
    own = len(words) == 2 and words[1] == "step" and words[0] not in extra
    if own and words[0] not in names.BOOKKEEPING and words[0] not in names.EVAL_WORDS:
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
    count = number(value)
    if count is None or count < 0 or not float(count).is_integer():
        return True
    # a batch counts within its epoch (`[Epoch 4] Batch 10/126`, `Epoch[0] Batch [9100]`)
    found.count(rank, int(count), int(total) if total else None, rank == 9, spans)
    return True


def number(text: str) -> float | None:
    try:
        value = float(text)
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def dict_fields(line: str) -> Found | None:
    start, end = line.find("{"), line.rfind("}")
    text = line[start : end + 1]
    if end < start or len(text) > _DICT_MAX:
        return None
    data = None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        try:
            data = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    if not isinstance(data, dict) or not data:
        return None
    found = Found(structured=True)
    places = {m["k"]: m.span("v") for m in reversed(list(_DICT_VALUE.finditer(line)))}
    for key, raw in data.items():
        if not isinstance(key, str):
            continue
        if isinstance(raw, str):
            if key.lower() in ("mode", "phase", "split", "name", "stage") and (
                raw.lower() in names.EVAL_WORDS or raw.lower().startswith("val")
            ):
                found.evaluating = True
            raw = number(raw) if re.fullmatch(NUM, raw.strip()) else None
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            continue
        words = names.words_of(key)
        place = places.get(key)
        if counter(words, key, repr(raw), None, found, "", (place, None)):
            continue
        found.pairs.append((key, float(raw), "", place))
    if not found.pairs and found.step is None:
        return None
    return found


_COLUMN_GAP = re.compile(r"\s{2,}")
_HEAD_TOKEN = re.compile(r"^(?:[A-Za-z][\w()./-]*|%)$")
_HEAD_CELL = re.compile(r"^[A-Za-z][\w()./-]*(?: [A-Za-z(][\w()./-]*){0,3}$")
"""A bar-separated column's name: up to four words (`Elapsed Time (seconds)`)."""


@dataclass(slots=True)
class Header:
    """A table's column names, printed once before its rows: by word (`Epoch GPU_mem box_loss`)
    and by gap (`Itn.  Dep Loss  NER Loss`: a name of two words between wide gaps)."""

    tokens: list[str]
    columns: list[str]
    epoch: bool
    """An epoch column: its rows may trail a bar (`3/30 13.1G 1.5 … 576: 100%|███| 8/8`)."""
    sep: str | None = None
    """Cells between commas (`Epoch ,FinishTime ,LR ,RMSE_Train ,RMSE_Val`) or bars (`Step |
    Training Loss | Validation Loss`, `| Iteration | Training Loss |`): a row's too."""


def is_header(line: str) -> Header | None:
    """Column names with no number, one a loss: `Epoch GPU_mem box_loss cls_loss … Size`,
    `LOSS  P  R  F`, `Itn.  Dep Loss  NER Loss  UAS …`; a row under it is read by its header."""
    if "," in line or "|" in line:
        return _cells_header(line, "," if "," in line else "|")
    tokens = line.split()
    if not 2 <= len(tokens) <= 24 or not all(_HEAD_TOKEN.match(t) for t in tokens):
        return None
    low = [t.lower() for t in tokens]
    epoch = "epoch" in low
    if epoch and any("loss" in t or t in ("total", "box", "obj", "cls") for t in low):
        return Header(tokens, tokens, True)
    if not any(names.is_loss(t) for t in low):
        return None
    return Header(tokens, _COLUMN_GAP.split(line.strip()), False)


def _cells(line: str, sep: str) -> list[str]:
    """A line's cells between `sep`s (a bordered row's outer bars are no cells)."""
    line = line.strip()
    if sep == "|":
        line = line.removeprefix("|").removesuffix("|")
    return [cell.strip() for cell in line.split(sep)]


def _cells_header(line: str, sep: str) -> Header | None:
    """Names between commas or bars, three or more, one of them a counter or a loss (`Epoch
    ,FinishTime ,LR ,RMSE_Train ,RMSE_Val`: a CSV log a trainer appends a row to; `| Iteration
    | Training Loss | Elapsed Time (seconds) |`: a table a trainer or a notebook draws)."""
    cells = _cells(line, sep)
    head = _HEAD_TOKEN if sep == "," else _HEAD_CELL
    if not 3 <= len(cells) <= 24 or not all(head.match(c) for c in cells):
        return None
    low = [c.lower() for c in cells]
    if not any(c in names.EPOCH_KEYS or c in names.STEP_KEYS or names.is_loss(c) for c in low):
        return None
    return Header(cells, cells, False, sep=sep)


def _cells_row(line: str, header: Header, sep: str) -> Found | None:
    """A row of as many cells between `sep`s as `header` has names; a cell that is no number
    (a time, an empty cell, `[0.001]`) is left out."""
    cells = _cells(line, sep)
    if len(cells) != len(header.tokens):
        return None
    found = Found(structured=True)
    for name, cell in zip(header.tokens, cells, strict=True):
        if (value := number(cell.strip())) is None:
            continue
        if not counter(names.words_of(name), name, cell.strip(), None, found, ""):
            found.pairs.append((name, value, "", None))
    return found if found.pairs or found.epoch is not None or found.step is not None else None


def table_row(line: str, header: Header) -> Found | None:
    """A row under `header`: each number is its column's (a counter's, or a metric's)."""
    if header.sep is not None:
        return _cells_row(line, header, header.sep)
    if not header.epoch:
        return _plain_row(line.split(), header)
    tokens = line.split()
    if len(tokens) < len(header.tokens):
        return None
    found = Found(structured=True)
    numbers = 0
    for name, token in zip(header.tokens, tokens, strict=False):
        token = token.rstrip(":")
        low = name.lower()
        if low == "epoch":
            e, _, es = token.partition("/")
            if not e.isdigit():
                return None
            found.epoch = float(e)
            found.epochs = int(es) if es.isdigit() else None
            continue
        if (value := number(token)) is None:
            continue
        numbers += 1
        found.pairs.append((name, value, "", None))
    if numbers < 2 or found.epoch is None:
        return None
    rest = line.split(maxsplit=len(header.tokens))[-1] if len(tokens) > len(header.tokens) else ""
    if (m := BAR.search(rest)) is not None:
        found.count(7, int(float(m["n"])), int(float(m["total"])), position=True)
    return found


def _plain_row(tokens: list[str], header: Header) -> Found | None:
    """A row of numbers only, one under each column (by word, else by gap); a row of another
    width, or with a word in it, is not the table's."""
    if len(tokens) == len(header.tokens):
        columns = header.tokens
    elif len(tokens) == len(header.columns):
        columns = header.columns
    else:
        return None
    values = [number(token) for token in tokens]
    if None in values:
        return None
    found = Found(structured=True)
    for name, token, value in zip(columns, tokens, values, strict=True):
        if not counter(names.words_of(name), name, token, None, found, ""):
            found.pairs.append((name, value, "", None))
    return found
