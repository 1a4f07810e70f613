"""`LogView` and the `LogStore` under it, without a job: errors, spool, follow, wrap, filter."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from widgets.log_store import (
    ERROR_BODY,
    ERROR_START,
    FRAME_LINES,
    PLAIN,
    ErrorScanner,
    LogStore,
)
from widgets.log_view import LogView

TORCHRUN_FAILURE = """\
Traceback (most recent call last):
  File "/usr/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:{space}
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  rank      : 1 (local_rank: 1)
  exitcode  : 1 (pid: 4242)
============================================================
epoch 3 loss 0.1""".format(space=" ").splitlines()  # torch ends that line with a space


def kinds(lines: list[str]) -> list[int]:
    scanner = ErrorScanner()
    return [scanner.classify(line) for line in lines]


def test_a_traceback_runs_to_its_exception_line_and_torchruns_summary_belongs_to_it():
    assert kinds(TORCHRUN_FAILURE) == [ERROR_START] + [ERROR_BODY] * 14 + [PLAIN]
    # A log pasted into an issue, cut inside the frame: the frame ends, the training goes on.
    cut = TORCHRUN_FAILURE[:8] + [f"epoch 4 step {i} loss 0.1" for i in range(2_000)]
    framed = 5 + FRAME_LINES  # the traceback, the frame's `====`, then FRAME_LINES lines at most
    assert kinds(cut)[:framed] == [ERROR_START] + [ERROR_BODY] * (framed - 1)
    assert kinds(cut)[framed:] == [PLAIN] * (len(cut) - framed)
    prefixed = [
        "[rank1]: Traceback (most recent call last):",
        '[rank1]:   File "train.py", line 3, in <module>',
        "[rank1]: RuntimeError: boom",
        "[rank1]: next line",
    ]
    assert kinds(prefixed) == [ERROR_START, ERROR_BODY, ERROR_BODY, PLAIN]


def test_one_line_errors_and_what_is_not_one():
    errors = [
        "2026-05-01 12:00:00 ERROR something broke",
        "node-1:77:77 [0] NCCL WARN NET/IB : Got async event : port error",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "[E ProcessGroupNCCL.cpp:475] Watchdog caught collective operation timeout: WorkNCCL",
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
        "\x1b[31mERROR\x1b[0m coloured",
        "ValueError: bad value",
    ]
    assert kinds(errors) == [ERROR_START] * len(errors)
    plain = ["NCCL_DEBUG_SUBSYS=ERRORS", "error rate 0.1", "no errors so far", "loss 0.5"]
    assert kinds(plain) == [PLAIN] * len(plain)


def test_the_store_reads_every_line_back_searches_and_saves_the_spool(tmp_path: Path):
    (tmp_path / "log-99999999-stale.txt").write_text("left by a crash")
    store = LogStore(window=100, directory=tmp_path)
    assert not (tmp_path / "log-99999999-stale.txt").exists()
    lines = [f"line {i} {'é' * (i % 3)}\tend" for i in range(5_000)]
    lines[1234] = "ERROR here"
    for start in range(0, len(lines), 777):  # batches that do not line up with the index
        store.append(lines[start : start + 777])
    assert store.count == 5_000 and store.first_in_memory >= 4_875
    assert all(store.line(i) == lines[i] for i in range(0, 5_000, 7))
    assert list(store.error_starts) == [1234]

    from widgets.log_store import compile_query

    store.flush()
    assert list(store.scan(compile_query("LINE 49"), store.size)) == []  # capital: exact case
    assert list(store.scan(compile_query("line 499"), store.size))[:2] == [499, 4990]

    saved = tmp_path / "saved.log"
    store.save(saved, store.size, partial="50%|#####")
    assert saved.read_text() == "\n".join(lines) + "\n50%|#####\n"
    store.close()
    assert not store.path.exists() and store.closed


class ViewApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LogView(window=1_000)


async def test_following_wrapping_filtering_and_the_partial_line(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path))
    app = ViewApp()
    async with app.run_test(size=(60, 12)) as pilot:
        view = app.query_one(LogView)
        view.append([f"step {i}" for i in range(5_000)])
        view.set_partial(" 42%|####      | 42/100")
        await pilot.pause()
        assert view.follow
        assert view.visible_lines()[-2:] == ["step 4999", " 42%|####      | 42/100"]

        await pilot.press("pageup")
        assert not view.follow
        top = view.top_line
        view.append([f"more {i}" for i in range(10)])
        await pilot.pause()
        assert view.top_line == top  # paused: nothing moves
        await pilot.press("end")
        assert view.follow and view.visible_lines()[-2] == "more 9"

        view.wrap = True
        view.append(["x" * 200])
        await pilot.pause()
        assert view.visible_lines()[-2:] == ["x" * 200, " 42%|####      | 42/100"]

        view.set_filter("step 12")
        await pilot.pause()
        assert view.shown_count == 111  # 12, 120-129, 1200-1299
        view.wrap = False
        view.follow = False
        await pilot.press("home")
        await pilot.pause()
        assert view.visible_lines()[:2] == ["step 12", "step 120"]
        view.search("step 1299")
        assert view.match_count == 1 and view.top_line <= 1299
        view.set_filter(None)
        assert view.shown_count == 5_000 + 10 + 1 + 1

        spool = view.store.path
        view.clear()
        assert not spool.exists() and view.line_count == 0 and view.follow


async def test_a_jump_made_as_the_first_lines_arrive_shows_the_line(tmp_path: Path, monkeypatch):
    # The job screen jumps to a failure's first error in the same tick the lines arrive, before
    # the view's next layout: the line must be on screen at once, not only after a redraw.
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path))
    app = ViewApp()
    async with app.run_test(size=(60, 12)) as pilot:
        view = app.query_one(LogView)
        await pilot.pause()
        lines = [f"step {i}" for i in range(200)]
        lines[150] = "ERROR: disk quota almost used up"
        view.append(lines)
        assert view.first_error() and not view.follow
        assert view.on_screen(150) and "ERROR: disk quota almost used up" in view.visible_lines()
        await pilot.pause()
        assert view.on_screen(150) and not view.on_screen(0)
