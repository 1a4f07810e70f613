"""What the wizard says is true and in the user's words (issue 12, items 10-13): TensorFlow's
tasks and ps, Azure ML's NODE_RANK, no internal names, no raw markdown, every screen's keys."""

from __future__ import annotations

import io
import re

from rich.console import Console
from textual.widgets import Markdown, Static

from screens.help import HelpScreen
from screens.launch import LaunchStep
from screens.review import ReviewStep
from tui.core.spec import JobSpec
from tui.planning.plan import Origin, plan
from tui.planning.presets import get_preset
from widgets.env_table import EnvTable
from widgets.why import WhyPanel

from .conftest import make_app

RAW_MARKDOWN = re.compile(r"\*\*|`|(?<![\w*])\*\w[^*]*\*(?!\w)")
INTERNAL = re.compile(r"\b(per_node|per_process)\b|launch=single")


def shown(screen, selector) -> str:
    """A Static's words as a terminal shows them (Rich groups and text alike), wide enough
    that nothing wraps."""
    console = Console(width=400, file=io.StringIO(), record=True, color_system=None)
    widget = screen.query_one(selector, Static) if isinstance(selector, str) else selector
    console.print(widget.content)
    return console.export_text()


async def test_tensorflow_parameter_server_uses_tensorflows_words():
    app = make_app(spec=get_preset("tensorflow-ps").spec, review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewStep)
        summary = shown(review, "#summary")
        assert "2 workers + 1 ps = 3 tasks, one per node" in summary
        assert "WORLD_SIZE" not in summary and "per-node" not in summary
        table = review.query_one(EnvTable)
        review.query_one("#tabs").active = "tab-env"
        await pilot.pause()
        head = table.render_line(0).text
        assert head.split()[:2] == ["task", "node"] and "rank" not in head
        assert table.render_line(3).text.startswith("ps 0 ")
        table.cursor = 2
        await pilot.pause()
        assert shown(review, "#rank-detail").startswith("ps 0 · node 2:")
        review.query_one("#tabs").active = "tab-topology"
        await pilot.pause()
        topology = shown(review, "#topology")
        assert "3 nodes, one TensorFlow task each: 2 workers + 1 ps" in topology
        assert "WORLD_SIZE" not in topology and "master" not in topology

        app.goto_step(2)
        await pilot.pause()
        resources = app.screen
        assert str(resources.query_one("#nodes").parent.query_one("Label").render()) == "Workers"
        assert shown(resources, "#world").startswith("2 workers + 1 ps = 3 tasks, one per node")
        assert "adds a node" in str(resources.query_one(WhyPanel).render())


async def test_per_node_launch_says_azure_ml_sets_node_rank_as_the_env_tab_does():
    spec = get_preset("pytorch-torchrun").spec
    p = plan(spec)
    assert {v.name: v.origin for v in p.ranks[0].env}["NODE_RANK"] is Origin.AZUREML
    app = make_app(spec=spec)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, LaunchStep)
        why = str(app.screen.query_one(WhyPanel).render())
        assert "$NODE_RANK, $MASTER_ADDR and $MASTER_PORT, which Azure ML sets on each node" in (
            " ".join(why.split())
        )
        assert "which Azure ML does not set" in why  # the node count, and only it


async def test_no_screen_shows_raw_markdown_or_internal_names():
    for name in ("horovod", "pytorch-torchrun", "tensorflow-ps", "deepspeed", "lightning"):
        app = make_app(spec=get_preset(name).spec.with_changes(gpus_per_node=2), review=True)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            texts = [shown(app.screen, "#tab-command-body"), shown(app.screen, "#summary")]
            texts += [shown(app.screen, s) for s in app.screen.query(".tab-caption")]
            for step in range(5):
                app.goto_step(step)
                await pilot.pause()
                texts.append(str(app.screen.query_one(WhyPanel).render()))
                texts.append(shown(app.screen, "#error"))
            for text in texts:
                assert not RAW_MARKDOWN.search(text), (name, text)
                assert not INTERNAL.search(text), (name, text)
            # Spaces around marked words stay: "**Edit** on a tab", "`p` saves a preset".
            why = " ".join(str(app.screen.query_one(WhyPanel).render()).split())
            assert "Edit on a tab" in why and "p saves a preset" in why


async def test_review_tabs_have_keys_and_f1_lists_each_screens_own_keys():
    app = make_app(spec=JobSpec(), review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        tabs = app.screen.query_one("#tabs")
        assert tabs.active == "tab-command"
        await pilot.press("right_square_bracket")
        assert tabs.active == "tab-env"
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert tabs.active == "tab-sdk"  # wraps; hidden tabs (TF_CONFIG, DeepSpeed) skipped
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = app.screen.query_one(Markdown).source
        for line in ("| `^n` | Next", "| `p` | Save preset", "| `]` | Next tab", "| `[` |"):
            assert line in keys, line
        assert "Next match" not in keys


def test_launch_diagram_always_draws_a_parameter_server():
    from screens.launch import diagram

    ps = get_preset("tensorflow-ps").spec.with_changes(nodes=4)  # 4 workers + 1 ps
    drawn = diagram(ps).plain.splitlines()
    assert drawn == [
        "node 0  python (worker 0, all GPUs)",
        "node 1  python (worker 1, all GPUs)",
        "node 4  python (ps 0, all GPUs)",
        "… 2 more nodes",
    ]
    ddp = diagram(get_preset("pytorch-ddp").spec.with_changes(nodes=3)).plain
    assert ddp.endswith("… 1 more node\n")
