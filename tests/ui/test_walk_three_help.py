"""The third walk (issue 40, item 16): every key of the review shows at 80 columns, and F1 explains
the rank strip and the words a newcomer meets (straggler, hang, gloo, rehearsal)."""

from __future__ import annotations

from textual.widgets import Markdown

from screens.help import HelpScreen
from screens.review import ReviewStep

from .conftest import make_app
from .test_keys_where_expected import footer_keys
from .waits import on_screen, until


async def test_every_key_of_the_review_shows_in_its_footer_at_80_columns():
    app = make_app(review=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on_screen(app, ReviewStep), "the review")
        await pilot.pause()
        shown = footer_keys(app.screen)
        wanted = {"Back", "Next", "Help", "Quit", "Export", "Copy"}
        assert wanted <= set(shown), shown
        assert any("preset" in k.lower() for k in shown), shown  # p: save a preset
        assert "Target" in shown or "Azure/local" in shown, shown  # t: which target
        assert "Tab" in " ".join(str(w.render()) for w in app.screen.query("FooterLabel"))


async def test_help_explains_the_rank_strip_and_the_words_of_a_job():
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await until(pilot, lambda: on_screen(app, HelpScreen), "the help")
        text = app.screen.query_one(Markdown).source
        for term in ("Straggler", "Hang", "gloo", "Rehearsal"):
            assert f"**{term}**" in text, term
        strip = text[text.index("rank strip") :]
        for sign in ("▲", "quiet", "suspect", "green", "yellow", "red"):
            assert sign in strip, sign
        assert text.count("ctrl+p") == 1  # the palette's key, listed once
