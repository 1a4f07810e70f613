"""The structure of a progress line: counters, key–value pairs, a dict, a tqdm bar, a table row.

Trainers print the same few structures in their own spellings, so a line is read by its
structure, never by a pattern per trainer:

- counters: `[e][i/n]` and `[e/E][i/n]`, `i/n [====]` at the start of a bar, `epoch N`,
  `Epoch N/M`, `Nepoch`, `Epoch[N]`, `step N`, `iter: i/n`, `num_updates=N`, `Up. N`,
  `Batch i/n`, a `label: N [i/n]`, a round leading the pairs (`[N] train-rmse:…`, `N | loss …`,
  `N:\tlearn: …`), a counter a sentence is at or announces (`… at step N`, `at N epochs`,
  `N epochs completed`, `Start epoch N`, `Ending global_step: N`), a count named by its unit
  (`i/ n batches`, a `| N updates |` cell), a step of its own kind (`env_step=N`), a global
  count over an epoch's `i/n` (`STEP: 24/352 -- GLOBAL_STEP: 244300`), `i = N / M`, a count
  glued by `_` (`Epoch: 999_Iter:61`) or with thousands commas (`iter: 8,600`);
- key–value pairs: `k=v`, `k: v`, `k v` between `|`, `,`, `;`, tabs, ` - ` or a `/` after a
  value (`epoch=0/global_step=10`), multi-word keys (`lm loss`, `Tot Loss`, `training's
  binary_logloss`), a running average after the value (`loss: 0.0276 (0.0302)`), cells of a
  value then its name (`11.8750 loss, 1e-12 LR`); keys that name only the data set (`learn: …
  test: …`) are the loss on each; a value in seconds is a time (`batch_cost: 0.29 sec`); a
  key before two bare numbers (`Train loss 3 9.564240`) names the second, the first its count,
  only where the stream or the line's format proves it (`prove_counts`), else neither is read;
- a dict or JSON object (numbers may be strings: `"loss": "3.097"`);
- a tqdm bar: its description (`Epoch 3`, `Validation DataLoader 0`), `n/total`, rate, postfix
  (another logger's line glued after its bracket aside);
- a table row under a header line the stream printed earlier (`Epoch GPU_mem box_loss …`,
  `LOSS  P  R  F`, `Epoch ,FinishTime ,LR ,RMSE_Train`, `Step | Training Loss | Validation
  Loss`, `| Iteration | Training Loss |`): each number is its column's; a bordered
  `| key | value |` row.

Evaluation is kept apart: a key qualified by val/valid/eval/test/dev/cv, or a line whose lead
(the text before its first metric) names an evaluation phase (`Test:`, `Validation`, `[valid]`,
`Epoch(val)`) reports evaluation; so does a line without counters that follows one in the same
stream. Such metrics are named `val_…` and never give the training loss. A configuration print
(`Namespace(…, cuda=True, data='…')`) is no progress, and a loss whose name is numbered
(`loss_x16`, one output of several) is never the training loss alone, nor is a part of it alone
in an aligned report of one `key: value` a line (`Mean value loss: 19.66`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from itertools import pairwise

from tui.logs import progress_names as names
from tui.logs.progress_dict import dict_fields
from tui.logs.progress_fields import (
    BAR,
    GLUED_BAR,
    WORD,
    Found,
    text_fields,
)
from tui.logs.progress_gate import DIGIT, MAX_LINE, hinted, phase, settings
from tui.logs.progress_stream import (
    StreamState,
    eval_lead,
    own_count,
    prove_counts,
    set_keys,
    train_lead,
)
from tui.logs.progress_table import is_header, table_row
from tui.logs.progress_time import clock, stamp

_LEAD_COUNT = re.compile(r"^\s*(?P<i>\d+)/(?P<n>\d+)\s+(?:\[|━|-\s)")
_OPEN_BAR = re.compile(
    r"(?P<n>\d+)(?P<unit0>it|batch|step|steps|ba) \[(?P<elapsed>[\d:]+),\s*"
    r"(?P<rate>[\d.]+|\?)\s*(?P<unit>[\w/]+)(?:,\s*(?P<postfix>.*?))?\]\s*$"
)
_STEP_UNITS = frozenset({"it", "its", "batch", "batches", "step", "steps", "ba", "iter", "iters"})
_NOT_TRAINING = re.compile(
    r"download|upload|map\b|filter|tokeniz|generat|loading|fetching|extract|resolv|shuffl"
    r"|sanity|validat|eval|test|predict|saving|writing|convert|checkpoint|shards"
    r"|(?<!\d)(?<=\w)\.[a-z]\w{1,10}\b",  # a file's extension (`model.safetensors`), not
    # `Loss: 5.872` nor an ellipsis (`训练中...epoch0`)
    re.IGNORECASE,
)
_BAR_EPOCH = re.compile(r"\bEpoch (?P<n>\d+)(?:/(?P<total>\d+))?\s*:?\s*$", re.IGNORECASE)
_BRANCH = re.compile(r"[├└]─+$")
"""A tree's branch before a key: the key is a node of a report printed one metric a line."""
_JSON_MEMBER = re.compile(r'"(?P<key>[A-Za-z_][\w ./-]{0,60})"\s*:\s*[-+.\d]')
"""A pretty-printed JSON object's member alone on its line (`"loss": 0.3025,`: a trainer's
state file, one key a line)."""
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


@dataclass(slots=True)
class Progress:
    """What one log line says about training progress (fields it does not say are None).
    Not frozen: a frozen dataclass's `__init__` costs a microsecond more, a line."""

    values: dict[str, float] = field(default_factory=dict)
    """Metrics by normalised name; the training loss is `loss`, the evaluation loss `val_loss`,
    other evaluation metrics `val_…` or as qualified (`eval_f1`)."""
    step: int | None = None
    """The step (with `per_epoch`: the step within the epoch)."""
    total: int | None = None
    """Steps in all (with `per_epoch`: in this epoch)."""
    epoch: float | None = None
    """The epoch as printed (or as the stream's last `Epoch N/M` line said)."""
    epochs: int | None = None
    """Epochs in all, when printed (`Epoch 2/5`)."""
    epoch_index: int | None = None
    """The 0-based epoch, when the format says which base it uses."""
    per_epoch: bool = False
    """`step`/`total` count within the epoch (an epoch's bar, `[e][i/n]`)."""
    rate: float | None = None
    """Steps per second, from a tqdm bar."""
    left: float | None = None
    """Seconds left, as a tqdm bar estimates them (for its own total)."""
    at: float | None = None
    """When the line says it was printed (seconds on its own scale), for a line with a step."""
    kind: str = "text"
    """Which shape the line had: dict, tqdm, bar (`i/n [===] - loss: …`), epoch (`Epoch 2/5`),
    table, text; or ignored (an evaluation or download bar: parsed, and not training)."""
    diverged: bool = False
    """The training loss is printed, as `nan` or `inf`: no point of the series (they hold
    numbers), and what a chart of a run that diverged says."""

    @property
    def loss(self) -> float | None:
        """The training loss the line reports."""
        return self.values.get("loss")

    @property
    def val_loss(self) -> float | None:
        """The evaluation loss the line reports."""
        return self.values.get("val_loss")


def read_line(line: str, state: StreamState | None = None) -> Progress | None:
    """The progress `line` reports (None: none); `state` is its stream's memory, if kept."""
    if len(line) > MAX_LINE:
        return None
    shift: int | None = None
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    else:
        shift = len(line) - len(line.lstrip())
    line = line.strip() if names.WIDE.search(line) is None else names.in_english(line).strip()
    if state is not None:
        state.found, state.shift = None, shift
    header = state.header if state is not None else None
    if header is not None and (line[:1].isdigit() or (line[:1] == "|" and header.sep == "|")):
        row = table_row(line, header)
        if row is not None:
            return _finish(row, line, state, kind="table")
    if DIGIT.search(line) is None:
        if state is not None:
            if (header := is_header(line)) is not None:
                state.header = header
            elif (said := phase(line)) is not None:
                state.evaluating = said
        return None
    if not hinted(line):
        if state is not None and (said := phase(line)) is not None:
            state.evaluating = said
        return None
    if settings(line):
        return None
    if "{" in line and "}" in line and (found := dict_fields(line)) is not None:
        return _finish(found, line, state, kind="dict")
    if "[" in line and ("it" in line or "/s" in line) and (bar := _bar(line, state)) is not None:
        return bar
    member = line[:1] == '"' and (m := _JSON_MEMBER.match(line)) is not None
    if member:
        line = f" {m['key']} {line[m.end('key') + 1 :]}"  # `"loss": 0.30,`: a JSON object's member
    elif line[:1] == "(" and line[-1:] == ")" and ("'" in line or '"' in line):
        line = _untupled(line)
    if " per " in line:  # `Training loss per 100 training steps: 2.25`: a rate's qualifier
        line = _PER.sub(lambda m: " " * len(m[0]), line)
    found = Found(member=member)
    text_fields(line, found)
    if (m := _LEAD_COUNT.match(line)) is not None and " - " in line:
        found.count(50, int(m["i"]), int(m["n"]), True, (m.span("i"), m.span("n")))
        found.structured = True
        progress = _finish(found, line, state, kind="bar")
        if progress is None or not progress.values:
            return None  # `68608000/68606236 [=====] - 1s 0us/step`: a download
        return progress
    return _finish(found, line, state, kind="text")


_PER = re.compile(
    r"\bper\s+\d+\s+(?:training\s+)?(?:steps?|batch(?:es)?|iter(?:ation)?s?|samples?)\b",
    re.IGNORECASE,
)
_TUPLE_ITEM = re.compile(r"""'[^'\n]*'|"[^"\n]*"|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?""")


def _untupled(line: str) -> str:
    """`('Loss at ', 0, 16.654182)`, Python 2's print of a tuple of words and numbers, as the
    line it meant (`  Loss at    0: 16.654182 `): the quotes, brackets and commas blanked, a
    comma between two numbers a colon (the number after it is the one before it's value). Of the
    same length, so a value's place in the line is its place in the text."""
    items = list(_TUPLE_ITEM.finditer(line))
    if len(items) < 2 or line[1 : items[0].start()].strip() or items[-1].end() != len(line) - 1:
        return line
    if "".join(line[a.end() : b.start()] for a, b in pairwise(items)).replace(",", "").strip():
        return line  # not a flat tuple of words and numbers
    chars = list(line)
    chars[0] = chars[-1] = " "
    for a, b in pairwise(items):
        numbers = a[0][0] not in "'\"" and b[0][0] not in "'\""
        for at in range(a.end(), b.start()):
            chars[at] = ":" if numbers and chars[at] == "," else " "
    for item in items:
        if item[0][0] in "'\"":
            chars[item.start()] = chars[item.end() - 1] = " "
    return "".join(chars)


_BAR_RANK = 7
"""A bar's own count, as a step: below a step the description names by its word."""


def _bar(line: str, state: StreamState | None) -> Progress | None:
    m = BAR.search(line)
    glued = m is None and "%" in line and (m := GLUED_BAR.search(line)) is not None
    if glued and hinted(line[m.end() :]):
        return None  # the glued line reports progress itself (`…s/it][…] step=2000, lr=…`)
    closed = m is not None
    if m is None and (m := _OPEN_BAR.search(line)) is None:
        return None
    inverted = False
    if m.groupdict().get("clock") is not None:  # `| 1849/1849 13:15`: a bar without its bracket
        unit, rate, left = "it/s", None, None
    else:
        unit = m["unit"]
        if "/" not in unit:
            return None
        per, _, right = unit.partition("/")
        if (per if right == "s" else right if per == "s" else "").lower() not in _STEP_UNITS:
            return None  # B/s, MB/s, examples/s: a download or a dataset map
        rate = None
        if m["rate"] != "?":
            value = float(m["rate"])
            rate = (1 / value if value else None) if per == "s" else value
            inverted = per == "s"
        left = clock(m["left"]) if closed else None
    desc = line[: m.start()].strip()
    if desc and _NOT_TRAINING.search(desc) and not _BAR_EPOCH.search(desc.rstrip(":") + ":"):
        if state is not None:
            state.evaluating = True
        return Progress(kind="ignored")  # parsed, and not training: callers drop it
    found = Found(structured=True)
    if postfix := (m["postfix"] or ""):
        text_fields(postfix, found, m.start("postfix"))
    found.pairs = [pair for pair in found.pairs if not pair[0].lower().endswith("v_num")]
    epoch_index = None
    if desc and (e := _BAR_EPOCH.search(desc.rstrip(": "))):
        found.set_epoch(float(e["n"]), None, (e.span("n"), None))
        epoch_index = int(e["n"])
    elif desc:
        text_fields(desc, _desc := Found(), len(line) - len(line.lstrip()))
        if _desc.epoch is not None:
            found.set_epoch(_desc.epoch, None, (_desc.spans.get("epoch"), None))
        found.pairs += _desc.pairs  # `Train Epoch: 1 Loss: 5.872: 100%|…|`: set_description's
        if _desc.step is not None and _desc.step_rank < _BAR_RANK and not _desc.position:
            # `Step: 28363. Epoch: 399/400. … Total loss: 0.05: 48%|…| 34/71`: the printed step
            # outranks the bar's count within the epoch
            steps = (_desc.spans.get("step"), _desc.spans.get("total"))
            found.count(_desc.step_rank, _desc.step, _desc.total, False, steps)
    n = int(float(m["n"]))
    if found.step is None or found.step_rank > _BAR_RANK:  # a postfix's batch_idx is outranked
        total = int(float(m["total"])) if closed else None
        spans = (m.span("n"), m.span("total") if closed else None)
        found.count(_BAR_RANK, n, total, epoch_index is not None, spans)
    if rate is not None:
        found.spans["rate"] = m.span("rate")
        found.inverted = inverted
    if left is not None:
        found.spans["left"] = m.span("left")
    progress = _finish(found, line, state, kind="tqdm")
    if progress is None:
        return None
    return replace(progress, epoch_index=epoch_index, rate=rate, left=left,
                   per_epoch=epoch_index is not None)  # fmt: skip


def _finish(found: Found, line: str, state: StreamState | None, kind: str) -> Progress | None:
    if found.unsure and state is not None:
        prove_counts(found, state.counts, line)
    sets = set_keys(found)
    sets = frozenset() if sets and names.measures_no_loss(line) else sets  # `Acc → Train: 1.0`
    evaluating = found.evaluating or eval_lead(line, found, sets)
    has_counter = found.step is not None or found.epoch is not None
    if state is not None:
        if evaluating and kind != "dict":
            state.evaluating = True
        elif state.evaluating and kind != "dict" and own_count(found, state, line):
            evaluating = True  # `step 10/88` after `Eval begin...`: training counts to 614
        elif has_counter or train_lead(line):
            state.evaluating = False
        elif state.evaluating and kind != "dict":
            evaluating = True
    values: dict[str, float] = {}
    nonfinite: dict[str, float] = {}
    spans = found.value_spans
    seen_loss = False
    previous = ""
    for key, value, note, span in found.pairs:
        name = names.metric_name(key)
        if name is None:
            continue
        if sets and name in sets:
            name = "val_loss" if name in names.EVAL_WORDS else "loss"
        if name in names.EVAL_WORDS and previous:
            name = f"{name}_{previous}"  # `loss train: 2.8, val: 2.9`: val of the same measure
        if not (found.structured or kind == "table" or names.is_known(name) or name == "total"):
            continue
        previous = "_".join(w for w in names.words_of(name) if w not in names.TRAIN_WORDS
                            and w not in names.EVAL_WORDS)  # fmt: skip
        if note and any(w in names.EVAL_WORDS for w in WORD.findall(note)):
            name = f"val_{name}"
        if evaluating and not names.is_eval(name) and not names.trains(key):
            name = f"val_{name}"  # not `train` in an evaluation (`[eval] iter 0: train 9.85`)
        seen_loss = seen_loss or names.is_loss(name)
        if math.isfinite(value) and name not in values:
            values[name], spans[name] = value, span
        elif not math.isfinite(value):
            nonfinite.setdefault(name, value)
    if found.step_rank == 5 and not seen_loss and found.epoch is None:
        found.step = found.total = None  # `Total optimization steps = 564`: a setting
    if found.step_rank == 8 and not values:
        found.step = found.total = None  # a number leading no metric (`[3] Loading …`)
    loss_name = names.pick_loss(values)
    aligned = _aligned(line, found, state)
    if _part(loss_name, found) and (
        (len(values) == 1 and (aligned or found.member)) or (state and state.whole_loss)
    ):
        loss_name = None  # one objective of a report printed a metric a line: not the total
    if state is not None:
        state.whole_loss |= loss_name is not None and names.is_whole_loss(loss_name)
    if loss_name is None and kind != "table":
        loss_name = names.pick_train_error(values, train_lead(line))
    total = values.pop("total", None) if kind != "table" and not found.structured else None
    if (
        loss_name is None
        and total is not None
        and names.total_is_loss(values, line, found.step is not None)
    ):
        loss_name, values["total"] = "total", total
    if loss_name is None and kind != "table" and (terms := names.terms_total(values)) is not None:
        loss_name, values["total"], spans["total"] = "total", terms, None  # no span: a sum
    if loss_name is None and kind == "table":
        total = next((v for n, v in values.items() if n.lower() == "total"), None)
        values.pop("total", None) if total is not None else None
        total = total if total is not None else names.parts_total(values)
        if total is not None:
            values["loss"] = total
    elif loss_name is not None and loss_name != "loss":
        values["loss"], spans["loss"] = values.pop(loss_name), spans.pop(loss_name)
    if (val_name := names.pick_val_loss(values)) is not None and val_name != "val_loss":
        values["val_loss"], spans["val_loss"] = values.pop(val_name), spans.pop(val_name)
    epoch = found.epoch
    if state is not None:
        state.found = found
        if epoch is not None:
            state.epoch = epoch
        elif values.get("loss") is not None:
            epoch = state.epoch
    diverged = (
        "loss" not in values
        and bool(nonfinite)
        and names.pick_loss({**dict.fromkeys(nonfinite, 0.0), **values}) in nonfinite
    )
    if not values and found.step is None and found.epoch is None and not diverged:
        return None
    if set(values) <= {"lr", "base_lr"} and not has_counter and not diverged:
        return None
    if state is not None and not evaluating and found.total is not None:
        state.total = found.total  # what training counts to (a plan sets it as this does)
    bar_epoch = _bar_epoch(line)
    return Progress(
        values,
        step=found.step,
        total=found.total,
        epoch=epoch,
        epochs=found.epochs,
        epoch_index=(int(found.epoch) - 1) if bar_epoch else _index(found, kind),
        per_epoch=found.position and found.total is not None,
        at=stamp(line) if found.step is not None else None,
        kind="epoch" if bar_epoch else kind,
        diverged=diverged,
    )


def _aligned(line: str, found: Found, state: StreamState | None) -> bool:
    """The line is one `key: value` whose `:` stands where the last line's did, or whose bullet
    (the marks before its key, no word) is the last line's: a report printed a metric a line
    (`      Learning time: 0.060s` over `    Mean value loss: 19.66`; `| > G_gen_loss: 16.55`
    under `| > G_l1_spec_loss: 0.37`), or a branch of a printed tree (`│   ├── heatmap =
    0.0004`); a part of the loss alone on such a line may be one objective of several, and
    which of them, if any, is the total the line cannot say."""
    if state is None:
        return False
    mark = None
    if len(found.pairs) == 1 and (sep := ":" if ":" in line else "=" if "=" in line else ""):
        bullet = line[: max(line.find(found.pairs[0][0]), 0)].strip()
        bullet = bullet if bullet and not any(c.isalnum() for c in bullet) else None
        column = state.shift + line.find(sep) if state.shift is not None else None
        mark = (column, bullet)
    last, state.column = state.column, mark
    if mark is not None and mark[1] is not None and _BRANCH.search(mark[1]):
        return True
    if mark is None or last is None:
        return False
    return (mark[0] is not None and mark[0] == last[0]) or (
        mark[1] is not None and mark[1] == last[1]
    )


def _part(name: str | None, found: Found) -> bool:
    """`name`, a part of the loss (not the whole), on a line with no counter: alone, or where
    the stream prints its whole loss elsewhere (`Loss: 44.7` then `Mel Loss: 6.7, MSE: 2.5`)."""
    return (
        name is not None and found.step is None and found.epoch is None
        and not names.is_whole_loss(name)
    )  # fmt: skip


def _index(found: Found, kind: str) -> int | None:
    if kind == "table" or found.epoch is None or found.epoch < 1:
        return None  # `0/299`: a table counts from 0
    if found.epoch is not None and found.epochs is not None and found.epoch.is_integer():
        return int(found.epoch) - 1  # `Epoch [1/10]` counts from 1
    return None


def _bar_epoch(line: str) -> bool:
    return bool(re.fullmatch(r"Epoch \d+/\d+", line))
