"""The third walk (issue 40), what lists and small notices show a newcomer: the jobs list tells
same-shape jobs apart by their script, cuts long words with an ellipsis and quotes no CLI flag
(item 21); the VM size table opens with the big GPU sizes in view at 80 × 24, and `y` says what
it did rather than "Copied" (item 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screens.jobs import JobsScreen, JobsTable
from screens.resources import ResourcesStep
from screens.review import ReviewStep
from tests.backends import conftest as backends
from tests.backends.conftest import SCRIPTS, local_plan
from tests.ui.waits import notices, on_screen, until
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec

from .conftest import make_app
from .test_answers_kept import go_to

job_root = backends.job_root
backend = backends.backend


def _row_texts(screen: JobsScreen) -> dict[str, list[str]]:
    table = screen.query_one(JobsTable)
    return {
        str(row[1]): [str(cell) for cell in row]
        for row in (table.get_row_at(i) for i in range(table.row_count))
    }


@pytest.mark.slow
async def test_jobs_of_one_shape_differ_by_script_and_long_words_end_in_an_ellipsis(
    backend: LocalBackend, tmp_path: Path
):
    (tmp_path / "other.py").write_text((SCRIPTS / "ranks.py").read_text())
    jobs = {}
    for code, script in ((SCRIPTS, "ranks.py"), (tmp_path, "other.py")):
        shape = JobSpec(sku=None, nodes=1, gpus_per_node=2, code=str(code), script=script)
        jobs[script] = backend.submit(local_plan(shape.with_changes(args=("--seconds", "0.1"))))
    for job in jobs.values():
        backend.wait(job, timeout=60)
    app = make_app(backends={"local": lambda: backend})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
        screen = app.screen
        listed = lambda: set(_row_texts(screen)) >= {j.name for j in jobs.values()}  # noqa: E731
        await until(pilot, listed, "both jobs")
        rows = _row_texts(screen)
        for script, job in jobs.items():
            assert script in rows[job.name]  # same shape, told apart by the script
        table = screen.query_one(JobsTable)
        last = [str(rows[j.name][-1]) for j in jobs.values()]
        assert all(words.endswith("…") for words in last), last
        assert table.virtual_size.width <= table.scrollable_content_region.width  # in view
        await pilot.resize_terminal(140, 30)  # wider: more of the words, still whole rows
        await until(pilot, lambda: len(_row_texts(screen)[jobs["ranks.py"].name][-1]) > 20, "more")
        assert table.virtual_size.width <= table.scrollable_content_region.width


async def test_the_jobs_list_says_how_to_choose_a_workspace_in_the_app_not_cli_flags():
    from tui.backends.azureml.workspace import NO_WORKSPACE
    from tui.backends.base import BackendError

    def unconfigured():
        raise BackendError(NO_WORKSPACE)

    app = make_app(backends={"azureml": unconfigured})
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await until(pilot, lambda: on_screen(app, JobsScreen), "the jobs list")
        note = lambda: str(app.screen.query_one("#jobs-note").render())  # noqa: E731
        await until(pilot, lambda: "Azure ML:" in note(), "the Azure note")
        assert "Submit step" in note()
        assert "--" not in note(), note()


async def test_the_vm_size_table_opens_with_the_h100_and_a100_sizes_in_view_at_80x24():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#target-local")  # this machine: no VM size chosen
        await until(pilot, lambda: app.review_target == "local", "this machine")
        await go_to(pilot, ResourcesStep)
        await pilot.pause()
        table = app.screen.query_one("#sku")
        first = table.scroll_y
        visible = table.size.height - 1  # the header row
        shown = [str(table.get_row_at(i)[0]) for i in range(int(first), int(first) + visible)]
        for size in ("ND96isr_H100_v5", "ND96asr_v4", "ND96amsr_A100_v4"):  # 8 GPUs a node
            assert any(size in s for s in shown), (size, shown)
        assert first <= table.cursor_row < first + visible  # the chosen row is in view too


async def test_y_says_it_sent_the_text_to_the_terminals_clipboard_not_that_it_copied():
    app = make_app(review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReviewStep), "the review")
        await pilot.press("y")
        await until(pilot, lambda: "clipboard" in notices(app), "the notice")
        assert "Copied" not in notices(app)
        assert "OSC 52" in notices(app)
