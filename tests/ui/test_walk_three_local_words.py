"""The third walk (issue 40), a rehearsal on this machine in its own words: no Azure ML starting
processes or setting variables there, no GPUs on a CPU machine, no code "uploaded" (item 18);
the CLI's rehearsal has no VM size, as the wizard's "This machine" has none (item 13)."""

from __future__ import annotations

import contextlib
import io

from screens.code import CodeStep
from screens.review import ReviewStep
from tui.cli import main
from tui.planning.presets import get_preset

from .conftest import make_app
from .test_answers_kept import go_to
from .test_plain_words import shown
from .waits import until


def _cli(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(list(args)) == 0
    return out.getvalue(), err.getvalue()


def test_a_cli_rehearsal_names_no_vm_size_and_no_idle_paid_gpus():
    args = ("preview", "--preset", "pytorch-ddp", "--set", "gpus_per_node=2", "--offline")
    here, warned = _cli(*args, "--target", "local", "--show", "all")
    assert "Standard_ND96asr_v4" not in here + warned
    assert "paid for and idle" not in here + warned
    assert "2 nodes × 2 processes" in here.splitlines()[0]
    cloud, _ = _cli(*args, "--show", "all")  # the cluster keeps its size and its warning
    assert "Standard_ND96asr_v4" in cloud and "paid for and idle" in cloud


def test_a_local_plan_says_dtrain_tui_starts_the_processes_as_azure_ml_would():
    out, _ = _cli("preview", "--preset", "pytorch-torchrun", "--target", "local", "--show", "all")
    said = " ".join(out.split())
    assert "Azure ML starts" not in said
    assert "Per-node launch: dtrain-tui (as Azure ML would) starts 1 process on each node" in said
    env = out[out.index("Env per rank") :]
    node_rank = next(line for line in env.splitlines() if line.strip().startswith("NODE_RANK"))
    assert node_rank.split()[-1] == "would)" and "Azure ML" in node_rank
    assert "replaces Azure ML's" not in env
    cloud, _ = _cli("preview", "--preset", "pytorch-torchrun", "--show", "all")
    assert "Per-node launch: Azure ML starts 1 process" in " ".join(cloud.split())


async def test_the_review_of_a_rehearsal_shows_processes_and_who_really_sets_the_variables():
    app = make_app(spec=get_preset("pytorch-ddp").spec, review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReviewStep), "the review")
        app.screen.action_toggle_target()
        await until(pilot, lambda: app.review_target == "local", "this machine")
        app.screen.query_one("#tabs").active = "tab-topology"
        await pilot.pause()
        drawn = shown(app.screen, "#topology")
        assert "proc0:r0" in drawn and "GPU0" not in drawn
        app.screen.query_one("#tabs").active = "tab-env"
        await pilot.pause()
        legend = shown(app.screen, "#legend")
        assert "dtrain-tui (as Azure ML would)" in legend
        assert "■ Azure ML" not in legend


async def test_the_code_step_of_a_rehearsal_says_the_folder_is_copied_not_uploaded():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.review_target = "local"
        await go_to(pilot, CodeStep)
        words = " ".join(
            str(w.render()) for w in app.screen.query("Label, WhyPanel, .field-hint") if w.display
        )
        assert "uploaded" not in words
        assert "copied into one folder per simulated node" in " ".join(words.split())


async def test_the_code_step_says_which_fields_a_rehearsal_ignores_only_for_a_rehearsal():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await go_to(pilot, CodeStep)
        assert not app.screen.query_one("#azure-only").display  # Azure ML: every field counts
        await pilot.press("escape")
        app.review_target = "local"
        await go_to(pilot, CodeStep)
        note = app.screen.query_one("#azure-only")
        assert note.display and "ignores them" in str(note.render())
