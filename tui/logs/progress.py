"""Training progress read from the log lines people already print: loss, lr, accuracy, step, epoch.

`parse_line(line)` is a pure function: one log line in, a `Progress` (or None) out. It knows the
shapes frameworks print without being asked to:

- Hugging Face Trainer's dict lines: `{'loss': 0.52, 'learning_rate': 5e-05, 'epoch': 0.3}`;
- tqdm bars, Lightning's among them: `Epoch 3:  45%|████▌ | 450/1000 [00:30<00:36, 15.0it/s]`;
- Keras: `Epoch 2/5` then `422/422 ━━━━ 2s 3ms/step - accuracy: 0.93 - loss: 0.25`;
- plain prints: `key: value`, `key=value`, `key value` (`iter 100: loss 4.23`, `Loss=2.31`,
  `Epoch [1/10], Step [100/600], Loss: 0.2345`, Megatron's `| lm loss: 2.5E+00 |`).

It is conservative: a number counts only when its key is unambiguous. In free text that means a
known metric word (`loss`, `acc*`, `lr`/`learning rate`, `grad norm`, `perplexity`, with a
qualifier such as `train`/`val`); in a structured line (a dict, a Keras or tqdm postfix) any key
except the ones that are speed or bookkeeping (`*_runtime`, `*_per_second`, `v_num`, …). A line
with nothing but a learning rate (a config echo, `Namespace(lr=0.1, …)`) is not progress.
Download, map, validation and evaluation bars are not training progress.

`ProgressTracker` turns a log's lines into series against step, the current epoch and step, the
rate (steps/s, from tqdm or from step arrival times) and an ETA when the total is known.
No Textual, no Azure here.
"""

from __future__ import annotations

import ast
import math
import re
import time
from array import array
from collections import deque
from dataclasses import dataclass, field, replace

_NUM = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b"
_VALUE = rf"(?P<value>{_NUM}|\[\s*(?:{_NUM})(?:\s*,\s*(?:{_NUM}))*\s*\])"
_QUALIFIERS = (
    "train|training|val|valid|validation|eval|test|avg|average|mean|lm|total|running"
    "|learning|grad|gradient|top"
)
_KEY_VALUE = re.compile(
    rf"(?<![\w./@-])(?P<key>(?:(?:{_QUALIFIERS}) )?[A-Za-z][\w./@-]{{0,60}})"
    rf"(?:\s*[:=]\s*|\s+){_VALUE}(?![\w./%-]*/)(?![\w.])",
    re.IGNORECASE,
)
_STEP = re.compile(
    r"(?<![\w.-])(?P<key>global[_ ]step|step|iter(?:ation)?|it(?=\s*[:=]))(?![\w.-])"
    r"\s*(?:[:=#]\s*)?\[?\s*(?P<n>\d+)(?:\s*/\s*(?P<total>\d+))?\]?(?![\w.])",
    re.IGNORECASE,
)
_EPOCH = re.compile(
    r"(?<![\w.-])epoch(?![\w.-])\s*(?:[:=#]\s*)?\[?\s*(?P<n>\d+(?:\.\d+)?)"
    r"(?:\s*/\s*(?P<total>\d+))?\]?(?![\w.])",
    re.IGNORECASE,
)
_KERAS_EPOCH = re.compile(r"^\s*Epoch (?P<n>\d+)/(?P<total>\d+)\s*$")
_KERAS_STEP = re.compile(r"^\s*(?P<n>\d+)/(?P<total>\d+) (?:\[[=>.]*\]|━+|\S*\s)")
_KERAS_PAIR = re.compile(rf"(?:^|\s)- (?P<key>[A-Za-z][\w./@-]*): {_VALUE}(?=\s|$)")
_TQDM = re.compile(
    r"^(?P<desc>.*?)(?P<pct>\d{1,3})%\s*(?:\|[^|]*\|)?\s*"
    r"(?P<n>\d+(?:\.\d+)?)/(?P<total>\d+(?:\.\d+)?)\s*"
    r"\[(?P<elapsed>[\d:]+)<(?P<left>[\d:]+|\?),\s*(?P<rate>[\d.]+|\?)\s*(?P<unit>[\w/]+)"
    r"(?:,\s*(?P<postfix>.*?))?\]\s*$"
)
_TQDM_OPEN = re.compile(
    r"^(?P<desc>.*?)(?P<n>\d+)(?P<unit0>it|\w+) \[(?P<elapsed>[\d:]+),\s*"
    r"(?P<rate>[\d.]+|\?)\s*(?P<unit>[\w/]+)(?:,\s*(?P<postfix>.*?))?\]\s*$"
)
_STEP_UNITS = frozenset({"it", "its", "batch", "batches", "step", "steps", "ba", "iter", "iters"})
_NOT_TRAINING = re.compile(
    r"download|upload|map\b|filter|tokeniz|generat|loading|fetching|extract|resolv|shuffl"
    r"|sanity|validat|eval|test|predict|saving|writing|convert|checkpoint|shards|\.\w{2,11}\b",
    re.IGNORECASE,
)
_LIGHTNING_EPOCH = re.compile(r"\bEpoch (?P<n>\d+)(?:/(?P<total>\d+))?\s*:?\s*$", re.IGNORECASE)
_POSTFIX_PAIR = re.compile(rf"(?P<key>[A-Za-z][\w./@-]*)=\s*{_VALUE}(?=,|$)")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_METRIC_WORDS = frozenset({"loss", "acc", "accuracy", "lr", "ppl", "perplexity", "f1", "mae"})
_RATE_WORDS = frozenset({"lr"})
_NOT_METRIC_WORDS = frozenset(
    {
        "scale", "scaler", "scales", "runtime", "samples", "second", "seconds", "per", "flos",
        "time", "num", "count", "fn", "function", "type", "py", "idx", "v", "sec", "speed",
        "steps", "scheduler", "warmup", "decay", "min", "max", "init", "best", "epochs",
        "memory", "mem", "tokens", "throughput", "tflops", "mfu", "eta",
    }
)  # fmt: skip
_BOOKKEEPING = re.compile(
    r"(?:^|_)(?:runtime|per_second|flos|v_num|batch_idx|step|global_step|epoch)$", re.IGNORECASE
)
_ALIASES = {"learning_rate": "lr", "learning rate": "lr", "learningrate": "lr"}
_DICT_MAX = 4000
_HINTS = (
    "loss", "acc", "lr", "learning", "step", "iter", "epoch", "/s", "s/", "norm", "ppl",
    "perplex", "f1", "mae", "{", "- ",
)  # fmt: skip
"""A line that reports progress holds one of these (lower case): the rest is skipped at once."""


@dataclass(frozen=True)
class Progress:
    """What one log line says about training progress (fields it does not say are None)."""

    values: dict[str, float] = field(default_factory=dict)
    """Metrics by normalised name: `loss`, `lr`, `accuracy`, `val_loss`, `train_loss`, …"""
    step: int | None = None
    """The step (or, with `per_epoch`, the step within the epoch)."""
    total: int | None = None
    """Steps in all (with `per_epoch`: in this epoch)."""
    epoch: float | None = None
    """The epoch as printed (Keras and `k/n` count from 1, Lightning's bar from 0)."""
    epochs: int | None = None
    """Epochs in all, when printed (`Epoch 2/5`)."""
    epoch_index: int | None = None
    """The 0-based epoch, when the format says which base it uses."""
    per_epoch: bool = False
    """`step`/`total` count within the epoch (Lightning and Keras bars)."""
    rate: float | None = None
    """Steps per second, from a tqdm bar."""
    left: float | None = None
    """Seconds left, as a tqdm bar estimates them (for its own total)."""
    kind: str = "text"
    """Which shape the line had: dict, tqdm, keras, text."""


def parse_line(line: str) -> Progress | None:
    """The progress `line` reports, or None when it reports none (most lines)."""
    if len(line) > 20_000 or not any(c.isdigit() for c in line):
        return None
    low = line.lower()
    if not any(word in low for word in _HINTS):
        return None  # most lines: one pass over the text per hint word, no regex
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    line = line.strip()
    if "{" in line and "}" in line and (found := _parse_dict(line)) is not None:
        return found
    if "[" in line and ("it" in line or "/s" in line) and (found := _parse_tqdm(line)):
        return found if found.values or found.step is not None else None
    if (found := _parse_keras(line)) is not None:
        return found
    return _parse_text(line)


def metric_name(key: str) -> str | None:
    """`key` normalised (`Train Loss` → `train_loss`, `learning rate` → `lr`), or None when it
    is not a metric a chart should show (speed, counters, loss *scale*, file names)."""
    name = key.strip().lower().replace(" ", "_").replace("-", "_")
    name = _ALIASES.get(name, name)
    name = re.sub(r"(?:^|_)learning_rate$", lambda m: m.group(0)[:-13] + "lr", name)
    words = [w for w in re.split(r"[_./@]+", name) if w]
    if not name.isprintable() or len(name) > 80:
        return None  # a dict key with control characters never reaches the terminal
    if not words or any(w in _NOT_METRIC_WORDS for w in words):
        return None
    return name


def _is_known_metric(name: str) -> bool:
    words = re.split(r"[_./@]+", name)
    return any(w in _METRIC_WORDS or re.fullmatch(r"acc\d+|top\d+", w) for w in words) or (
        name.endswith("grad_norm")
    )


def _number(text: str) -> float | None:
    if text.startswith("["):
        first = text.strip("[] ").split(",")[0]
        text = first.strip()
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _counts(values: dict[str, float], step: int | None, epoch: float | None) -> bool:
    """A line is progress with a metric other than the learning rate, or a step or epoch."""
    return step is not None or epoch is not None or any(k != "lr" for k in values)


def _parse_dict(line: str) -> Progress | None:
    start, end = line.find("{"), line.rfind("}")
    text = line[start : end + 1]
    if end < start or len(text) > _DICT_MAX:
        return None
    try:
        data = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        try:
            data = ast.literal_eval(
                text.replace("true", "True").replace("false", "False").replace("null", "None")
            )
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    if not isinstance(data, dict) or not data:
        return None
    values: dict[str, float] = {}
    step = epoch = None
    known = False
    for key, raw in data.items():
        if not isinstance(key, str) or isinstance(raw, bool) or not isinstance(raw, int | float):
            continue
        if not math.isfinite(raw):
            continue
        low = key.lower()
        if low == "epoch":
            epoch = float(raw)
        elif low in ("step", "global_step"):
            step = int(raw)
        elif not _BOOKKEEPING.search(low) and (name := metric_name(key)):
            values[name] = float(raw)
            known = known or _is_known_metric(name)
    if not known and step is None:
        return None  # a config dict ({'lr': 0.1, 'batch_size': 32}), not a training record
    if not _counts(values, step, epoch):
        return None
    return Progress(values, step=step, epoch=epoch, kind="dict")


def _parse_tqdm(line: str) -> Progress | None:
    m = _TQDM.match(line)
    closed = m is not None
    if m is None:
        m = _TQDM_OPEN.match(line)
        if m is None or m.group("unit0") not in ("it", "batch", "step", "steps", "ba"):
            return None
    unit = m.group("unit")
    if "/" not in unit:
        return None
    left_part, right_part = unit.split("/", 1)
    if left_part == "s":
        per = right_part
    elif right_part == "s":
        per = left_part
    else:
        return None
    if per.lower() not in _STEP_UNITS:
        return None  # B/s, MB/s, examples/s, ex/s: a download or a dataset map
    desc = m.group("desc").strip().rstrip(":").strip()
    if desc and _NOT_TRAINING.search(desc) and not _LIGHTNING_EPOCH.search(desc + ":"):
        return Progress(kind="ignored")  # parsed, and not training: callers drop it
    rate_text = m.group("rate")
    rate = None
    if rate_text != "?":
        value = float(rate_text)
        rate = (1 / value if value else None) if left_part == "s" else value
    n = int(float(m.group("n")))
    total = int(float(m.group("total"))) if closed else None
    left = _clock(m.group("left")) if closed else None
    epoch = epoch_index = None
    per_epoch = False
    if desc and (e := _LIGHTNING_EPOCH.search(desc)):
        epoch = float(e.group("n"))
        epoch_index = int(e.group("n"))
        per_epoch = True
    values: dict[str, float] = {}
    postfix = m.group("postfix") or ""
    for pair in _POSTFIX_PAIR.finditer(postfix):
        key = pair.group("key")
        if _BOOKKEEPING.search(key.lower()):
            continue
        value = _number(pair.group("value"))
        name = metric_name(key)
        if value is not None and name:
            values[name] = value
    return Progress(
        values,
        step=n,
        total=total,
        epoch=epoch,
        epoch_index=epoch_index,
        per_epoch=per_epoch,
        rate=rate,
        left=left,
        kind="tqdm",
    )


def _parse_keras(line: str) -> Progress | None:
    if m := _KERAS_EPOCH.match(line):
        n = int(m.group("n"))
        return Progress(
            epoch=float(n), epochs=int(m.group("total")), epoch_index=n - 1, kind="keras"
        )
    m = _KERAS_STEP.match(line)
    if m is None or " - " not in line:
        return None
    values: dict[str, float] = {}
    for pair in _KERAS_PAIR.finditer(line):
        key = pair.group("key")
        if key == "ETA" or _BOOKKEEPING.search(key.lower()):
            continue
        value = _number(pair.group("value"))
        name = metric_name(key)
        if value is not None and name:
            values[name] = value
    if not values:
        return None  # `68608000/68606236 [=====] - 1s 0us/step`: a download, not an epoch
    n, total = int(m.group("n")), int(m.group("total"))
    return Progress(values, step=n, total=total, per_epoch=True, kind="keras")


def _parse_text(line: str) -> Progress | None:
    values: dict[str, float] = {}
    for m in _KEY_VALUE.finditer(line):
        name = metric_name(m.group("key"))
        if name is None or not _is_known_metric(name):
            continue
        value = _number(m.group("value"))
        if value is not None and m.group("value").lstrip("[").strip():
            values.setdefault(name, value)
    step = total = None
    if m := _STEP.search(line):
        step = int(m.group("n"))
        total = int(m.group("total")) if m.group("total") else None
    epoch = epochs = epoch_index = None
    if m := _EPOCH.search(line):
        epoch = float(m.group("n"))
        if m.group("total"):
            epochs = int(m.group("total"))
            epoch_index = int(epoch) - 1  # `Epoch [1/10]` counts from 1
    if not values and step is None and epoch is None:
        return None
    if not _counts(values, step, epoch):
        return None
    return Progress(
        values,
        step=step,
        total=total,
        epoch=epoch,
        epochs=epochs,
        epoch_index=epoch_index,
        per_epoch=step is not None and epochs is not None and total is not None,
        kind="text",
    )


def _clock(text: str) -> float | None:
    """Seconds from tqdm's `[H:]MM:SS` (None for `?`)."""
    if not text or text == "?":
        return None
    seconds = 0.0
    for part in text.split(":"):
        if not part.isdigit():
            return None
        seconds = seconds * 60 + int(part)
    return seconds


# ---- a log's series and where training stands ------------------------------------------------


@dataclass
class Series:
    """One metric's points: x (the step, or the point's number when no step is known), y."""

    name: str
    xs: array = field(default_factory=lambda: array("d"))
    ys: array = field(default_factory=lambda: array("d"))
    source: str = "log"
    """Where the points came from: "log" (parsed here) or "mlflow" (the job's tracking store)."""

    @property
    def last(self) -> float | None:
        return self.ys[-1] if self.ys else None

    def add(self, x: float, y: float) -> None:
        self.xs.append(x)
        self.ys.append(y)


@dataclass(frozen=True)
class Standing:
    """Where training stands: what the status line and the metrics pane show."""

    step: int | None = None
    total: int | None = None
    """Steps in all when known (`None`: no ETA to the end)."""
    epoch: float | None = None
    epochs: int | None = None
    rate: float | None = None
    """Steps per second."""
    eta: float | None = None
    """Seconds left: to the end of training when `total` is known, else to the end of the epoch
    (`eta_scope` says which)."""
    eta_scope: str = "training"


RATE_WINDOW = 60.0
"""Seconds of step arrivals a rate without tqdm is measured over."""
_SAME_MOMENT = 0.5  # arrivals this close are one moment (a backlog read at once has no rate)


class ProgressTracker:
    """Feeds on a log's lines; keeps each metric's series and the latest standing.

    `feed(lines)` takes complete lines (points are added); `feed_partial(text)` the live last
    line (a tqdm bar mid-redraw: it moves the step and rate, adds no point). `now` is injected
    for tests; it defaults to `time.monotonic()`.
    """

    def __init__(self, source: str = "log") -> None:
        self.source = source
        self.series: dict[str, Series] = {}
        """Metric name → its points, in the order first seen."""
        self.lines_parsed = 0
        """Lines that reported progress."""
        self._step: int | None = None  # the global step
        self._total: int | None = None
        self._epoch: float | None = None
        self._epochs: int | None = None
        self._epoch_index: int | None = None
        self._per_epoch_total: int | None = None
        self._bar_rate: float | None = None
        self._bar_left: float | None = None
        self._bar_total = 0  # the main bar: the one with the largest total (not eval bars)
        self._arrivals: deque[tuple[float, int]] = deque()
        self._count = 0

    def feed(self, lines: list[str] | tuple[str, ...], now: float | None = None) -> int:
        """Take complete lines; how many reported progress."""
        found = 0
        for line in lines:
            progress = parse_line(line)
            if progress is None or progress.kind == "ignored":
                continue
            found += 1
            self._apply(progress, now, add_points=True)
        self.lines_parsed += found
        return found

    def feed_partial(self, text: str, now: float | None = None) -> None:
        """Take the unfinished last line (a bar being redrawn): step and rate, no points."""
        if text and (progress := parse_line(text)) is not None and progress.kind != "ignored":
            self._apply(progress, now, add_points=False)

    def _apply(self, p: Progress, now: float | None, add_points: bool) -> None:
        if p.epochs is not None:
            self._epochs = p.epochs
        if p.epoch is not None:
            self._epoch = p.epoch
        if p.epoch_index is not None:
            self._epoch_index = p.epoch_index
        if p.step is not None:
            step, total = p.step, p.total
            if p.kind == "tqdm" and total is not None:
                if total < self._bar_total and not p.per_epoch:
                    step = None  # a smaller bar (evaluation) does not move training's step
                else:
                    self._bar_total = total
            if step is not None:
                if p.per_epoch and total is not None:
                    self._per_epoch_total = total
                    done = self._epoch_index or 0
                    step = done * total + step
                    total = self._epochs * total if self._epochs else None
                    if p.kind == "tqdm":
                        self._bar_rate, self._bar_left = p.rate, p.left
                elif p.kind == "tqdm":
                    self._bar_rate, self._bar_left = p.rate, p.left
                self._step = step
                if total is not None:
                    self._total = total
                self._arrived(step, time.monotonic() if now is None else now)
        if add_points and p.values:
            self._count += 1
            x = float(self._step) if self._step is not None else float(self._count)
            for name, value in p.values.items():
                series = self.series.get(name)
                if series is None:
                    series = self.series[name] = Series(name, source=self.source)
                series.add(x, value)

    def prepend(self, head: ProgressTracker) -> None:
        """Put the points of the lines before this tracker's first in front (a log opened at
        its end, whose head was read afterwards); what the head knew that this does not (the
        epochs in all, say) is kept too."""
        merged: dict[str, Series] = {}
        for name, older in head.series.items():
            mine = self.series.get(name)
            xs, ys = array("d", older.xs), array("d", older.ys)
            if mine is not None:
                xs.extend(mine.xs)
                ys.extend(mine.ys)
            merged[name] = Series(name, xs, ys, self.source)
        for name, mine in self.series.items():
            merged.setdefault(name, mine)
        self.series = merged
        self.lines_parsed += head.lines_parsed
        for attr in ("_epochs", "_total", "_per_epoch_total"):
            if getattr(self, attr) is None:
                setattr(self, attr, getattr(head, attr))

    def _arrived(self, step: int, now: float) -> None:
        arrivals = self._arrivals
        if arrivals and now - arrivals[-1][0] < _SAME_MOMENT:
            arrivals[-1] = (arrivals[-1][0], step)  # a burst is one moment: keep its last step
        else:
            arrivals.append((now, step))
        while len(arrivals) > 2 and now - arrivals[0][0] > RATE_WINDOW:
            arrivals.popleft()

    def standing(self) -> Standing:
        """Where training stands now."""
        rate = self._bar_rate if self._bar_rate else self._timed_rate()
        step, total = self._step, self._total
        eta, scope = None, "training"
        if rate and step is not None and total is not None and total >= step:
            eta = (total - step) / rate
        elif self._per_epoch_total and rate and step is not None:
            within = step % self._per_epoch_total if self._per_epoch_total else step
            eta, scope = (self._per_epoch_total - within) / rate, "epoch"
        elif self._bar_left is not None:
            eta = self._bar_left
        return Standing(step, total, self._epoch, self._epochs, rate, eta, scope)

    def _timed_rate(self) -> float | None:
        arrivals = self._arrivals
        if len(arrivals) < 2:
            return None
        (t0, s0), (t1, s1) = arrivals[0], arrivals[-1]
        if t1 - t0 < 1.0 or s1 <= s0:
            return None
        return (s1 - s0) / (t1 - t0)


def merge_series(*groups: dict[str, Series]) -> dict[str, Series]:
    """Series from several sources in one map; a name found in more than one source is
    labelled by source (`loss (log)`, `loss (mlflow)`) so neither hides the other."""
    seen: dict[str, list[Series]] = {}
    for group in groups:
        for series in group.values():
            seen.setdefault(series.name, []).append(series)
    merged: dict[str, Series] = {}
    for name, found in seen.items():
        if len(found) == 1:
            merged[name] = found[0]
            continue
        for series in found:
            merged[f"{name} ({series.source})"] = replace(series, name=f"{name} ({series.source})")
    return merged


STRAGGLER_GAP = 0.2
"""A rank this much slower than the median rank is a straggler."""


def stragglers(rates: dict[str, float]) -> set[str]:
    """The ranks at least 20 % slower than the median of `rates` (steps/s by rank)."""
    values = sorted(rates.values())
    if len(values) < 2:
        return set()
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return {name for name, rate in rates.items() if rate <= median * (1 - STRAGGLER_GAP)}
