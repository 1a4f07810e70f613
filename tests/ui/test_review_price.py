"""The review's price: nodes × the VM size's price with its date, at once from the cache or the
shipped snapshot; Azure's retail prices API asked in a thread worker when the cache is over a
day old, the line redrawn when it answers, and a one-line notice when it cannot be reached."""

from __future__ import annotations

import pytest

from tests.core.fake_prices_api import closed_port, serving
from tests.ui.waits import notices, until
from tui.core import prices
from tui.planning.presets import get_preset

from .conftest import make_app


def _summary(app) -> str:
    return str(app.screen.query_one("#summary").render())


async def test_the_review_shows_the_snapshot_price_and_asks_nothing_without_an_api():
    app = make_app(spec=get_preset("pytorch-ddp").spec, review=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        assert "Price: $54.39/h dedicated, low-priority price unknown (2 × " in _summary(app)
        assert "eastus, 2026-11-09 snapshot)" in _summary(app)
        # DTRAIN_TUI_PRICES_URL is empty in tests: nothing asked.
        assert not [w for w in app.workers if w.group == "prices"]


async def test_the_review_asks_the_api_and_redraws_the_price(monkeypatch: pytest.MonkeyPatch):
    with serving() as url:
        monkeypatch.setenv(prices.URL_ENV, url)
        app = make_app(spec=get_preset("pytorch-ddp").spec, review=True)
        async with app.run_test(size=(140, 40)) as pilot:
            await until(pilot, lambda: "from the API)" in _summary(app), "the API's price")
            assert "Price: $57.00/h dedicated, $11.40/h low-priority (2 × " in _summary(app)
            # The notice is a message the app handles after the redraw: wait for it too.
            await until(pilot, lambda: "prices: refreshed from the Azure" in notices(app), "it")
            assert "prices: refreshed from the Azure retail prices API (eastus" in notices(app)


async def test_an_unreachable_api_keeps_the_snapshot_and_says_so(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(prices.URL_ENV, f"http://127.0.0.1:{closed_port()}/api/retail/prices")
    app = make_app(spec=get_preset("pytorch-ddp").spec, review=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await until(pilot, lambda: "could not be reached" in notices(app), "the notice")
        assert "prices unchanged (the 2026-11-09 snapshot)" in notices(app)
        assert "eastus, 2026-11-09 snapshot)" in _summary(app)
