"""The progress corpus: real log streams with what must be read from each line, split once at
random into a dev half (read while writing rules) and a test half (only its score is looked at).

    .venv/bin/python tests/logs/data/progress/corpus.py            # scores of both halves
    .venv/bin/python tests/logs/data/progress/corpus.py --misses   # and the dev half's misses

`streams.txt` states its expectations directly; `lines.txt` (the parser's older table) is read too,
its expected training loss taken from the metrics it lists (`loss`, else `train_loss`, `lm_loss`,
`total_loss`), and a `Test set:` summary counted as evaluation. `split.txt` says which half each
stream is in: a stream (one `## source:` block) is never divided, so a table's header stays with
its rows. The `fresh/` files of `FILES`, held-out sets each scored once (fresh/README.md), were
then folded into the dev half whole: the random split covers `SPLIT` only. Scores: loss right
(over lines with a training loss), step right and epoch right (over lines that name one), and how many lines with no training loss gave one.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
SEED = 20261124
"""The split's seed: `random.Random(SEED).shuffle` of the stream keys; first half dev."""
SPLIT = ("lines.txt", "streams.txt")
"""The files split at random; the others' streams are all dev (a held-out set, once spent)."""
FILES = (
    *SPLIT,
    "fresh/2026-11-27.txt",
    "fresh/2026-11-27b.txt",
    "fresh/2026-11-27c.txt",
    "fresh/2026-11-27d.txt",
    "fresh/2026-11-27e.txt",
    "fresh/2026-11-27f.txt",
    "fresh/2026-11-27g.txt",
    "fresh/2026-11-27h.txt",
    "fresh/2026-11-27i.txt",
    "fresh/2026-11-27j.txt",
    "fresh/2026-11-27k.txt",
    "fresh/2026-11-27l.txt",
    "fresh/2026-11-28n.txt",
    "fresh/2026-11-28o.txt",
    "fresh/2026-11-28p.txt",
    "fresh/2026-11-28q.txt",
    "fresh/2026-11-28r.txt",
    "fresh/2026-11-28s.txt",
    "fresh/2026-11-28t.txt",
    "fresh/2026-11-28u.txt",
    "fresh/2026-11-28v.txt",
    "fresh/2026-11-28w.txt",
    "fresh/2026-11-28x.txt",
    "fresh/2026-11-28y.txt",
    "fresh/2026-11-28z.txt",
    "fresh/2026-11-28zc.txt",
    "fresh/2026-11-28zf.txt",
)
_LOSS_KEYS = ("loss", "train_loss", "lm_loss", "total_loss")


@dataclass
class Line:
    text: str
    loss: float | None = None
    step: int | None = None
    epoch: float | None = None
    val: float | None = None


@dataclass
class Stream:
    key: str
    """`file#n`: the n-th `## source:` block of the file (from 1)."""
    source: str
    lines: list[Line] = field(default_factory=list)


def load() -> list[Stream]:
    streams: list[Stream] = []
    for name in FILES:
        count = 0
        current: Stream | None = None
        pending: str | None = None
        for raw in (HERE / name).read_text(encoding="utf-8").split("\n"):
            if pending is None:
                if raw.startswith("## source:"):
                    count += 1
                    current = Stream(f"{name}#{count}", raw.removeprefix("## source:").strip())
                    streams.append(current)
                elif raw.startswith("#") or not raw.strip():
                    continue
                else:
                    pending = raw
                continue
            assert raw.startswith("=> "), f"{name}: no expectation after {pending!r}"
            assert current is not None
            expect = raw[3:].strip()
            line = _from_table(pending, expect) if name == "lines.txt" else _stated(pending, expect)
            current.lines.append(line)
            pending = None
    return streams


def _stated(text: str, expect: str) -> Line:
    line = Line(text)
    for token in expect.split():
        if token == "-":
            continue
        key, value = token.split("=", 1)
        if key == "step":
            line.step = int(value)
        elif key in ("loss", "epoch", "val"):
            setattr(line, key, float(value))
        else:
            raise ValueError(f"unknown expectation {token!r} for {text!r}")
    return line


def _from_table(text: str, expect: str) -> Line:
    line = Line(text)
    if expect == "-":
        return line
    wanted = dict(item.split("=", 1) for item in expect.split())
    if not text.startswith("Test set:"):
        for key in _LOSS_KEYS:
            if key in wanted:
                line.loss = float(wanted[key])
                break
    if "step" in wanted:
        line.step = int(wanted["step"])
    if "epoch" in wanted:
        line.epoch = float(wanted["epoch"])
    return line


def split(streams: list[Stream]) -> dict[str, str]:
    """Stream key → "dev" or "test", as recorded in split.txt (written once, by `--write-split`)."""
    found: dict[str, str] = {}
    for raw in (HERE / "split.txt").read_text(encoding="utf-8").splitlines():
        if raw and not raw.startswith("#"):
            half, key, _ = raw.split(" ", 2)
            found[key] = half
    return found


def write_split(streams: list[Stream]) -> None:
    keys = [s.key for s in streams if s.key.split("#")[0] in SPLIT]
    random.Random(SEED).shuffle(keys)
    test = set(keys[len(keys) // 2 :])
    rows = [f"{'test' if s.key in test else 'dev'} {s.key} {s.source}" for s in streams]
    header = (
        f"# The progress corpus split once at random: random.Random({SEED}).shuffle of the stream\n"
        "# keys in file order; the first half is dev. Columns: half, stream key, source.\n"
        "# A stream moved to dev after a rule was written from it is marked `(moved)`.\n"
    )
    (HERE / "split.txt").write_text(header + "\n".join(rows) + "\n", encoding="utf-8")


@dataclass
class Score:
    lines: int = 0
    losses: int = 0
    loss_right: int = 0
    steps: int = 0
    step_right: int = 0
    epochs: int = 0
    epoch_right: int = 0
    no_loss: int = 0
    false_loss: int = 0
    misses: list[str] = field(default_factory=list)

    def pct(self, right: int, total: int) -> float:
        return 100.0 * right / total if total else 100.0

    @property
    def loss_pct(self) -> float:
        return self.pct(self.loss_right, self.losses)

    @property
    def step_pct(self) -> float:
        return self.pct(self.step_right, self.steps)

    @property
    def epoch_pct(self) -> float:
        return self.pct(self.epoch_right, self.epochs)

    def summary(self) -> str:
        return (
            f"{self.lines} lines: loss {self.loss_right}/{self.losses} ({self.loss_pct:.1f} %), "
            f"step {self.step_right}/{self.steps} ({self.step_pct:.1f} %), "
            f"epoch {self.epoch_right}/{self.epochs} ({self.epoch_pct:.1f} %), "
            f"no-loss lines read as training loss {self.false_loss}/{self.no_loss}"
        )


def _reader():
    """What reads a stream's lines: the parser's per-stream reader where it has one."""
    sys.path.insert(0, str(ROOT))
    import tui.logs.progress as progress

    if hasattr(progress, "LineReader"):
        return lambda: progress.LineReader().read
    return lambda: progress.parse_line


def _loss_of(found) -> float | None:
    if found is None or getattr(found, "kind", "") == "ignored":
        return None
    if getattr(found, "diverged", False):
        return math.nan  # the loss printed as `nan` / `inf`: what the labels call `loss=nan`
    if hasattr(found, "loss"):
        return found.loss
    for key in _LOSS_KEYS:  # an older parser: its metrics by name
        if key in found.values:
            return found.values[key]
    return None


def _close(a: float | None, b: float | None) -> bool:
    if a is not None and b is not None and not math.isfinite(b):
        return not math.isfinite(a)  # `loss=nan` (or inf): read as a loss printed non-finite
    return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)


def score(streams: list[Stream], half: str | None = None) -> Score:
    halves = split(streams)
    new_reader = _reader()
    result = Score()
    for stream in streams:
        if half is not None and halves[stream.key] != half:
            continue
        read = new_reader()
        for line in stream.lines:
            found = read(line.text)
            ignored = found is None or getattr(found, "kind", "") == "ignored"
            loss = _loss_of(found)
            step = None if ignored else found.step
            epoch = None if ignored else found.epoch
            result.lines += 1
            wrong = []
            if line.loss is None:
                result.no_loss += 1
                if loss is not None:
                    result.false_loss += 1
                    wrong.append(f"loss {loss} (none)")
            else:
                result.losses += 1
                if _close(loss, line.loss):
                    result.loss_right += 1
                else:
                    wrong.append(f"loss {loss} (want {line.loss})")
            if line.step is not None:
                result.steps += 1
                if step == line.step:
                    result.step_right += 1
                else:
                    wrong.append(f"step {step} (want {line.step})")
            if line.epoch is not None:
                result.epochs += 1
                if epoch is not None and math.isclose(epoch, line.epoch):
                    result.epoch_right += 1
                else:
                    wrong.append(f"epoch {epoch} (want {line.epoch})")
            if wrong:
                result.misses.append(f"{stream.key} {'; '.join(wrong)}\n    {line.text[:160]!r}")
    return result


def false_series(streams: list[Stream], half: str | None = None) -> list[str]:
    """The series a stream's tracker made (`dtrain-tui metrics`, the chart) whose every point
    came from lines that report nothing at all (`=> -`: a banner, a configuration, noise), as
    `key name`; evaluation series (`val_…`) aside, since a Dev/Test summary is labelled `-`
    where it has no loss."""
    sys.path.insert(0, str(ROOT))
    from tui.logs.progress import ProgressTracker

    halves = split(streams)
    found: list[str] = []
    for stream in streams:
        if half is not None and halves[stream.key] != half:
            continue
        tracker, origin = ProgressTracker(), []  # origin[i]: the line of the i+1-th point line
        sizes: dict[str, list[int]] = {}  # an older tracker's (no index): the line of each point
        for at, line in enumerate(stream.lines):
            before = tracker._count
            tracker.feed([line.text], now=0.0)
            origin.extend([at] * (tracker._count - before))
            for name, series in tracker.series.items():
                sizes.setdefault(name, []).extend(
                    [at] * (len(series.ys) - len(sizes.get(name, [])))
                )
        for name, series in tracker.series.items():
            if hasattr(series, "ns"):
                lines = [stream.lines[origin[int(n) - 1]] for n in series.ns]
            else:
                lines = [stream.lines[at] for at in sizes[name]]
            empty = all(x.loss is x.step is x.epoch is x.val is None for x in lines)
            if empty and not series.validation:
                found.append(f"{stream.key} {series.name}")
    return found


def main(argv: list[str]) -> None:
    streams = load()
    if "--write-split" in argv:
        write_split(streams)
    sources = {s.source.split(" ")[0] for s in streams}
    lines = sum(len(s.lines) for s in streams)
    print(f"{lines} lines in {len(streams)} streams from {len(sources)} pages")
    for half in ("dev", "test"):
        result = score(streams, half)
        falses = false_series(streams, half)
        print(f"{half:>4}: {result.summary()}; false series {len(falses)}")
        if half == "dev" and "--misses" in argv:
            for miss in result.misses:
                print("  " + miss)
            for name in falses:
                print("  false series: " + name)


if __name__ == "__main__":
    main(sys.argv[1:])
