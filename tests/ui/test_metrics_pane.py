"""The metrics pane on the job screen: a real local job prints training progress, `m` shows the
chart (its points), where training stands (step, rate, ETA) and each rank's speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from screens.job import JobScreen
from tests.backends import conftest as backends
from tests.backends.conftest import local_plan
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.logs.follower import Timing
from tui.logs.progress import Series, Standing
from widgets.metrics_chart import MetricsChart, MetricsPane, RankRate

from .conftest import make_app
from .waits import until

pytestmark = pytest.mark.slow

job_root = backends.job_root
backend = backends.backend

FAST = Timing(min_interval=0.1, max_interval=0.3)

# Progress as tqdm prints it (with a postfix), a bar per line; rank 1 reports half the speed.
TRAIN = """
import os
rank = int(os.environ["RANK"])
rate = 10.0 if rank == 0 else 5.0
print(f"rank {rank} starting", flush=True)
for i in range(1, 101):
    left = (100 - i) / rate
    print(f"{i:3d}%|#         | {i}/100 [00:{int(i / rate):02d}<00:{int(left):02d}, "
          f"{rate:.2f}it/s, loss={2.0 / i:.4f}]", flush=True)
print(f"rank {rank} done", flush=True)
"""


@pytest.fixture
def train_code(tmp_path: Path) -> Path:
    code = tmp_path / "progress-code"
    code.mkdir()
    (code / "train.py").write_text(TRAIN)
    return code


def pane_text(screen: JobScreen, part: str) -> str:
    return str(screen.query_one(f"#metrics-{part}").render())


async def test_a_local_job_printing_loss_lines_fills_the_chart_and_shows_the_eta(
    backend: LocalBackend, train_code: Path
):
    spec = JobSpec(sku=None, nodes=2, gpus_per_node=1, code=str(train_code), script="train.py")
    job = backend.submit(local_plan(spec))
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = JobScreen(backend, job, status_interval=0.2, timing=FAST)
        await pilot.app.push_screen(screen)
        pane = screen.query_one(MetricsPane)
        assert not pane.display  # hidden until asked for
        await until(
            pilot,
            lambda: screen.follower is not None and screen.follower.state.phase == "finished",
            "rank 0's log is read to its end",
            ceiling=90,
        )
        await pilot.press("m")
        await until(pilot, lambda: pane.display and "ETA" in pane_text(screen, "standing"), "ETA")

        chart = screen.query_one(MetricsChart)
        loss = screen.metrics.tracker.series["loss"]
        assert len(loss.ys) == 100 and list(loss.xs) == [float(i) for i in range(1, 101)]
        assert chart.points_drawn == 100  # 100 points fit the width: none dropped
        standing = pane_text(screen, "standing")
        assert "step 100/100" in standing and "10 steps/s" in standing
        assert "ETA 0:00" in standing and "loss 0.02" in standing

        # Both ranks' speeds side by side; rank 1, at half the median's, is a straggler.
        await until(pilot, lambda: "straggler" in pane_text(screen, "ranks"), "rank speeds")
        ranks = pane_text(screen, "ranks")
        assert "rank 0 10/s" in ranks and "rank 1 5/s (straggler)" in ranks

        await pilot.press("m")
        assert not pane.display


def test_the_metrics_pane_snapshot(snap_compare):
    from textual.app import App, ComposeResult

    loss, val = Series("loss"), Series("val_loss")
    for step in range(0, 2000, 5):
        loss.add(step, 2.5 * 0.999**step + 0.05 * ((step * 7919) % 13) / 13)
    for step in range(0, 2000, 250):
        val.add(step, 2.6 * 0.999**step + 0.1)
    standing = Standing(step=1995, total=4000, epoch=2, epochs=4, rate=3.5, eta=573)
    ranks = [RankRate("rank 0", 3.5), RankRate("rank 1", 3.4), RankRate("rank 2", 2.1, True)]

    class PaneApp(App[None]):
        def compose(self) -> ComposeResult:
            yield MetricsPane(classes="-shown")

        def on_mount(self) -> None:
            self.query_one(MetricsPane).show({"loss": loss, "val_loss": val}, standing, ranks)

    assert snap_compare(PaneApp(), terminal_size=(100, 20))


def test_a_growing_series_is_reduced_to_the_width_and_keeps_its_extremes() -> None:
    from widgets.metrics_chart import DecimationCache

    cache, loss = DecimationCache(), Series("loss")
    for step in range(100_000):
        loss.add(step, 1.0 + (step % 97) / 97)
        if step in (5_000, 60_000, 99_999):
            xs, ys = cache.points(loss, 100)
            assert len(xs) <= 2 * 100 + 2 and xs == sorted(xs)
            assert min(ys) == 1.0 and max(ys) == max(loss.ys)
    loss.ys[50_000] = 9.0  # a spike among points already reduced is not seen again...
    fresh = DecimationCache().points(loss, 100)  # ...but a fresh reduction keeps it
    assert 9.0 in fresh[1]


async def test_validation_loss_is_a_second_labelled_series_beside_the_training_loss() -> None:
    from textual.app import App, ComposeResult

    from tui.logs.progress import ProgressTracker

    # mmengine prints a loss and its parts; the validation loop's summary comes in between.
    tracker = ProgressTracker()
    tracker.feed(
        [
            "Epoch(train) [1][10/90]  lr: 1.0e-02  loss: 2.4  loss_cls: 1.0  loss_bbox: 0.9"
            "  loss_dfl: 0.4  loss_obj: 0.1",
            "Epoch(train) [1][20/90]  lr: 1.0e-02  loss: 2.1  loss_cls: 0.9  loss_bbox: 0.8"
            "  loss_dfl: 0.3  loss_obj: 0.1",
            "Test:  [40/96]  eta: 0:00:23  loss: 2.6 (2.7)  acc1: 87.5 (87.4)",
            "Epoch(train) [1][30/90]  lr: 1.0e-02  loss: 1.9  loss_cls: 0.8  loss_bbox: 0.7"
            "  loss_dfl: 0.3  loss_obj: 0.1",
        ],
        now=0.0,
    )
    assert list(tracker.series["loss"].ys) == [2.4, 2.1, 1.9]  # never the validation's 2.6
    assert list(tracker.series["val_loss"].ys) == [2.6]
    assert tracker.series["val_loss"].validation and not tracker.series["loss"].validation

    class PaneApp(App[None]):
        def compose(self) -> ComposeResult:
            yield MetricsPane(classes="-shown")

    async with PaneApp().run_test(size=(100, 20)) as pilot:
        pane = pilot.app.query_one(MetricsPane)
        pane.show(tracker.series, tracker.standing())
        await pilot.pause()
        drawn = [s.name for s in pane.query_one(MetricsChart)._series]
        assert drawn[:2] == ["loss", "val_loss"]  # both on the loss axis, before the parts
        assert "val_loss 2.6" in str(pane.query_one("#metrics-standing").render())
