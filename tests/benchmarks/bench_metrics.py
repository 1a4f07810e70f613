"""Metrics benchmarks: the chart's redraw at 100k points, and the parser's speed.

Run: .venv/bin/python tests/benchmarks/bench_metrics.py [--points 100000]

(a) redraw: a headless app with the `MetricsPane` at 120×40 holding a loss series of
    `--points` points (and a 1/50 as long validation series); the time of one full redraw of
    the chart (decimation, plotext, conversion to Rich text), median and max of 20. Target:
    ≤ 20 ms. For comparison, the same redraw with decimation turned off.
(b) parsing: `parse_line` over 200k lines of a realistic mix (HF dicts, tqdm bars, Keras,
    plain prints, noise), lines per second: the job screen parses every line it receives.
(c) a million lines through a `ProgressTracker` (a stream's reader, its shape plans, the series):
    the corpus's real streams (tests/logs/data/progress) with their numbers varied, each stream a
    block as a log prints it; the same with nine noise lines after each; and the (b) mix. Target:
    1,000,000 lines in under 2 s. Each also through the bulk reader `dtrain-tui metrics` reads a
    file with (tui/logs/progress_bulk.py: the lines as bytes, runs of a shape a column at a time).
Prints figures; no pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402

import widgets.metrics_chart as chart_module  # noqa: E402
from tui.logs.progress import ProgressTracker, Series, Standing, parse_line  # noqa: E402
from tui.logs.progress_bulk import GROUP, BulkReader  # noqa: E402
from widgets.metrics_chart import MetricsChart, MetricsPane  # noqa: E402


def make_series(points: int) -> dict[str, Series]:
    rng = random.Random(1)
    loss, val = Series("loss"), Series("val_loss")
    for i in range(points):
        loss.add(i, 2.5 * math.exp(-i / (points / 4)) + 0.1 * rng.random())
    for i in range(0, points, 50):
        val.add(i, 2.6 * math.exp(-i / (points / 4)) + 0.1)
    return {"loss": loss, "val_loss": val}


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MetricsPane(classes="-shown")


async def redraw(points: int, decimated: bool, rounds: int = 20) -> dict[str, float]:
    series = make_series(points)
    original = chart_module.DecimationCache.points
    if not decimated:
        chart_module.DecimationCache.points = lambda self, s, buckets, by_index=False: (
            list(s.ns if by_index else s.xs),
            list(s.ys),
        )
    try:
        async with PaneApp().run_test(size=(120, 40)) as pilot:
            pane = pilot.app.query_one(MetricsPane)
            pane.show(series, Standing(step=points, total=2 * points, rate=3.0, eta=100))
            await pilot.pause()
            chart = pane.query_one(MetricsChart)
            times = []
            for _ in range(rounds if decimated else 3):
                t = time.perf_counter()
                chart.render()
                times.append(time.perf_counter() - t)
            drawn = chart.points_drawn
    finally:
        chart_module.DecimationCache.points = original
    return {
        "points": float(points),
        "points drawn": float(drawn),
        "redraw median ms": 1000 * statistics.median(times),
        "redraw max ms": 1000 * max(times),
    }


def parsing(lines: int = 200_000) -> dict[str, float]:
    sample = [
        "{'loss': 1.6462, 'grad_norm': 17.549, 'learning_rate': 4.1666e-05, 'epoch': 0.5}",
        "Epoch 0:  22%|██▏       | 4/18 [00:17<01:02,  4.47s/it, loss=10.072, v_num=193315]",
        " 422/422 ━━━━━━━━━━━━━━━━━━━━ 2s 3ms/step - accuracy: 0.9311 - loss: 0.2493",
        "iter 2920: loss 3.9883, time 1099.34ms, mfu 15.34%",
        "[2022-03-11 02:06:58,985] [INFO] [timer.py:189:stop] 0/40, SamplesPerSec=83.48",
        "NCCL INFO Channel 00/02 :    0   1   2   3",
        "Some plain text line with no numbers at all, as most log lines are",
        "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970",
    ]
    text = [sample[i % len(sample)] for i in range(lines)]
    t = time.perf_counter()
    found = sum(1 for line in text if parse_line(line) is not None)
    took = time.perf_counter() - t
    tracker = ProgressTracker()
    t = time.perf_counter()
    tracker.feed(text, now=0.0)
    fed = time.perf_counter() - t
    return {
        "lines": float(lines),
        "progress lines": float(found),
        "parse lines/s": lines / took,
        "tracker lines/s": lines / fed,
    }


NOISE = [
    "NCCL INFO Channel 00/02 :    0   1   2   3",
    "[rank1]:[W1124 10:32:50.974378 ProcessGroupNCCL.cpp:1970] Warning: barrier timed out",
    "2023-06-30 10:32:50.974378: I tensorflow/core/util/port.cc:113] oneDNN custom operations",
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1501',
    "Some plain text line with no numbers at all, as most log lines are",
    "wandb: Syncing run 2024-05-01_12-00-00 to https://wandb.ai/team/project/runs/abc123",
    "100 examples saved to /mnt/output/predictions_100.jsonl",
    "INFO 05-01 12:00:01 worker.py:88] heartbeat from node-3 (pid 4211)",
    "",
]


def corpus_log(lines: int, noise: int = 0) -> list[str]:
    """`lines` lines from the corpus's real streams, numbers varied (a seeded random), each
    stream a block in turn; `noise` noise lines after each progress line."""
    sys.path.insert(0, str(ROOT / "tests" / "logs" / "data" / "progress"))
    import corpus

    rng = random.Random(24)
    value = re.compile(r"(?<![A-Za-z_\d])\d+(?:\.\d+)?")

    def vary(text: str) -> str:
        def number(m: re.Match) -> str:
            whole, dot, fraction = m.group().partition(".")
            if set(fraction) > {"0"}:
                fraction = "".join(rng.choice("0123456789") for _ in fraction)
            return whole[0] + "".join(rng.choice("0123456789") for _ in whole[1:]) + dot + fraction

        return value.sub(number, text)

    streams = corpus.load()
    per = lines // len(streams) // (1 + noise) + 1
    out: list[str] = []
    for stream in streams:
        texts = [line.text for line in stream.lines]
        variants = [[vary(t) for _ in range(25)] for t in texts]
        for i in range(per):
            out.append(variants[i % len(texts)][(i // len(texts)) % 25])
            out.extend(NOISE[(i + k) % len(NOISE)] for k in range(noise))
    return out[:lines]


def million() -> dict[str, float]:
    figures: dict[str, float] = {}
    sample_mix = [
        "{'loss': 1.6462, 'grad_norm': 17.549, 'learning_rate': 4.1666e-05, 'epoch': 0.5}",
        "Epoch 0:  22%|██▏       | 4/18 [00:17<01:02,  4.47s/it, loss=10.072, v_num=193315]",
        " 422/422 ━━━━━━━━━━━━━━━━━━━━ 2s 3ms/step - accuracy: 0.9311 - loss: 0.2493",
        "iter 2920: loss 3.9883, time 1099.34ms, mfu 15.34%",
        "[2022-03-11 02:06:58,985] [INFO] [timer.py:189:stop] 0/40, SamplesPerSec=83.48",
        *NOISE[:3],
    ]
    logs = {
        "corpus streams": corpus_log(1_000_000),
        "corpus streams, 9 noise lines each": corpus_log(1_000_000, noise=9),
        "the (b) mix": [sample_mix[i % len(sample_mix)] for i in range(1_000_000)],
    }
    for name, text in logs.items():
        tracker = ProgressTracker()
        t = time.perf_counter()
        tracker.feed(text)
        took = time.perf_counter() - t
        figures[f"{name}: s"] = took
        figures[f"{name}: lines/s"] = len(text) / took
        raw = [line.encode() for line in text]
        reader = BulkReader(ProgressTracker())
        t = time.perf_counter()
        for at in range(0, len(raw), GROUP):
            reader.feed(raw[at : at + GROUP])
        took = time.perf_counter() - t
        figures[f"{name}, bulk: s"] = took
        figures[f"{name}, bulk: lines/s"] = len(text) / took
    return figures


def show(title: str, figures: dict[str, float]) -> None:
    print(f"\n{title}")
    for key, value in figures.items():
        print(f"  {key:<40} {value:,.2f}" if value % 1 else f"  {key:<40} {value:,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100_000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}")
    show(
        f"(a) chart redraw, {args.points:,} points, decimated (target ≤ 20 ms)",
        asyncio.run(redraw(args.points, decimated=True)),
    )
    show("    the same without decimation", asyncio.run(redraw(args.points, decimated=False)))
    show("(b) parsing", parsing())
    show("(c) 1,000,000 lines through a tracker (target < 2 s)", million())


if __name__ == "__main__":
    main()
