"""What a plan costs: the shipped snapshot, the cache the retail prices API fills, and what
`preview` says when the API answers, cannot be reached, or answers nonsense (the fake API and
its documented shape: tests/core/fake_prices_api.py).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest

from tests.core.fake_prices_api import PAGE_1, PAGE_2, closed_port, item, page, serving
from tui.cli import main
from tui.core import prices, prices_api
from tui.core.catalog import find_sku
from tui.planning.plan import Target, plan
from tui.planning.presets import get_preset

SNAPSHOT = Path(prices.__file__).parents[2] / "presets" / "prices.json"


def _client(*answers: httpx.Response | dict, seen: list | None = None) -> httpx.Client:
    """A client whose every request gets the next answer (a dict is sent as JSON)."""
    queue = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        answer = queue.pop(0)
        return answer if isinstance(answer, httpx.Response) else httpx.Response(200, json=answer)

    return httpx.Client(transport=httpx.MockTransport(handler))


def _ddp_price(**changes) -> prices.PlanPrice | None:
    spec = get_preset("pytorch-ddp").spec.with_changes(**changes)
    return prices.plan_price(plan(spec, Target.for_spec("azureml", spec)))


# ---- the snapshot -----------------------------------------------------------------------------


def test_every_shipped_price_names_a_known_size_a_date_and_its_sources():
    data = json.loads(SNAPSHOT.read_text())
    assert data["source"].startswith("Azure Retail Prices API, https://prices.azure.com/")
    assert "armSkuName" in data["filter"] and data["region"] == "eastus"
    datetime.strptime(data["date"], "%Y-%m-%d")
    for region, sizes in data["prices"].items():
        for size, row in sizes.items():
            assert find_sku(size) is not None, f"{size} is not in presets/skus.yaml"
            assert row.get("dedicated") or row.get("low_priority"), size
            assert row["sources"], f"{region} {size} has no source"
            if row["date"] is not None:
                datetime.strptime(row["date"], "%Y-%m-%d")


def test_preview_price_is_nodes_times_the_size_with_the_snapshot_date():
    priced = _ddp_price()
    assert priced is not None and priced.nodes == 2
    assert priced.dedicated == pytest.approx(2 * 27.197)
    assert priced.line() == (
        "$54.39/h dedicated, low-priority price unknown (2 × Standard_ND96asr_v4 at $27.197/h; "
        "Azure retail prices, eastus, 2026-11-09 snapshot)"
    )


def test_the_total_shown_is_the_nodes_times_the_unit_shown():
    """2 × $27.20 is not $54.39: the unit is shown as the list gives it (issue 40 item 22)."""
    sizes = json.loads(SNAPSHOT.read_text())["prices"]["eastus"]
    for size in sorted(sizes):
        vm = prices.vm_price(size)
        if vm is None or vm.dedicated is None:
            continue
        line = prices.PlanPrice(size, 2, vm).line()
        total, unit = re.search(r"^\$([\d,.]+)/h dedicated.* at \$([\d,.]+)/h", line).groups()
        assert f"{2 * float(unit):.2f}" == total, line


def test_a_size_without_a_figure_says_price_unknown_and_this_machine_has_no_price():
    priced = _ddp_price(sku="Standard_ND96isr_H200_v5")
    assert priced is not None and priced.vm is None
    assert priced.line() == (
        "price unknown for Standard_ND96isr_H200_v5 (no Azure retail price for it yet)"
    )
    spec = get_preset("pytorch-ddp").spec
    local = Target("local", 29500, tuple(range(29501, 29541)), 4)
    assert prices.plan_price(plan(spec, local)) is None


def test_a_size_priced_only_in_another_region_says_which():
    vm = prices.vm_price("Standard_ND96amsr_A100_v4")
    assert vm is not None and (vm.region, vm.low_priority) == ("eastus2", 6.554)
    assert vm.label == "Azure retail prices, eastus2, undated snapshot"


def test_the_idle_gpus_warning_says_what_they_cost():
    spec = get_preset("pytorch-ddp").spec.with_changes(gpus_per_node=4)
    p = plan(spec, Target.for_spec("azureml", spec))
    (idle,) = [w for w in p.warnings if "idle" in w]
    # 4 of 8 GPUs on 2 nodes: 8 idle GPUs = one node's price.
    assert idle.endswith(
        "The idle GPUs cost $27.20/h dedicated (Azure retail prices, eastus, 2026-11-09 snapshot)."
    )


def test_cost_so_far_and_to_finish_follow_the_clock_and_the_eta():
    priced = _ddp_price()
    assert priced is not None
    words = priced.cost_words(1800, 3600, ended=False)
    assert words == (
        "cost ≈ $27.20 so far · ≈ $54.39 to finish "
        "($54.39/h dedicated; Azure retail prices, eastus, 2026-11-09 snapshot)"
    )
    assert priced.cost_words(3600, 50, ended=True).startswith("cost ≈ $54.39 in all (")
    assert priced.cost_words(None, None, ended=False) is None


# ---- refreshing from the API ------------------------------------------------------------------


def test_a_refresh_keeps_the_linux_dedicated_and_low_priority_rows_and_follows_next_pages(
    monkeypatch,
):
    monkeypatch.setenv(prices.URL_ENV, prices.API_URL)  # refresh_due asks nothing, it reads
    seen: list[httpx.Request] = []
    done = prices.refresh(_client(PAGE_1, PAGE_2, seen=seen), url=prices.API_URL)
    assert done.ok, done.message
    assert done.message.startswith("prices: refreshed from the Azure retail prices API (eastus, 2")
    first = seen[0].url.params["$filter"]
    assert "armRegionName eq 'eastus'" in first and "armSkuName eq 'Standard_ND96asr_v4'" in first
    assert seen[1].url.params["$skip"] == "1000"  # the next page, as the API linked it
    vm = prices.vm_price("Standard_ND96asr_v4")
    assert vm is not None and (vm.dedicated, vm.low_priority, vm.origin) == (28.5, 5.7, "api")
    assert vm.label.endswith("from the API")
    h100 = prices.vm_price("Standard_ND96isr_H100_v5")
    assert h100 is not None and h100.dedicated == 99.5
    assert not prices.refresh_due()
    later = datetime.now(timezone.utc) + prices.FRESH_FOR + timedelta(minutes=1)
    assert prices.refresh_due(later)
    # The plan's warning keeps the snapshot's figure: the plan stays a function of the spec.
    assert prices.vm_price("Standard_ND96asr_v4", cached=False).dedicated == 27.197


def test_a_next_page_on_another_host_is_not_followed():
    elsewhere = page([item("Standard_ND96asr_v4", 28.5)], "https://example.com/steal?x=1")
    seen: list[httpx.Request] = []
    assert prices.refresh(_client(elsewhere, seen=seen), url=prices.API_URL).ok
    assert len(seen) == 1


BAD_ANSWERS = {
    "not JSON": httpx.Response(200, text="<html>maintenance</html>"),
    "a list": httpx.Response(200, json=[1, 2]),
    "Items not a list": httpx.Response(200, json={"Items": {"a": 1}}),
    "an item not an object": httpx.Response(200, json=page(["Standard_ND96asr_v4"])),
    "a price that is text": httpx.Response(200, json=page([item("Standard_ND96asr_v4", "27.197")])),
    "a price of a million": httpx.Response(
        200, json=page([item("Standard_ND96asr_v4", 1_000_000.0)])
    ),
    "HTTP 503": httpx.Response(503, text="busy"),
}


@pytest.mark.parametrize("what", sorted(BAD_ANSWERS))
def test_a_malformed_answer_changes_nothing_and_says_so_in_one_line(what: str):
    assert prices.refresh(_client(PAGE_1, PAGE_2), url=prices.API_URL).ok
    cache = prices.cache_dir() / prices.CACHE_NAME
    before = cache.read_bytes()
    done = prices.refresh(_client(BAD_ANSWERS[what]), url=prices.API_URL)
    assert not done.ok
    assert "\n" not in done.message and "prices unchanged (read from the API" in done.message
    assert ("HTTP 503" in done.message) if what == "HTTP 503" else ("malformed" in done.message)
    assert cache.read_bytes() == before
    assert prices.vm_price("Standard_ND96asr_v4").dedicated == 28.5


def _chunks(total: int) -> Iterator[bytes]:
    yield b'{"Items": ['
    sent = 11
    while sent < total:
        yield b" " * 65536
        sent += 65536
    yield b"]}"


@pytest.mark.parametrize("declared", [True, False])
def test_a_huge_answer_is_not_read_past_the_bound(declared: bool):
    size = prices.MAX_BYTES + (1 << 20)
    answer = (
        httpx.Response(200, content=b" " * size)  # with its Content-Length
        if declared
        else httpx.Response(200, content=_chunks(size))  # chunked: counted as it arrives
    )
    done = prices.refresh(_client(answer), url=prices.API_URL)
    assert not done.ok and "too big" in done.message and "\n" not in done.message
    assert done.message.endswith("prices unchanged (the 2026-11-09 snapshot)")
    assert not (prices.cache_dir() / prices.CACHE_NAME).exists()


def test_a_slow_answer_is_given_up_at_the_deadline(monkeypatch):
    monkeypatch.setattr(prices_api, "TIMEOUT", 0.3)  # the deadline of reading the answer

    def trickle() -> Iterator[bytes]:
        yield b'{"Items": ['
        for _ in range(40):
            time.sleep(0.05)
            yield b" "
        yield b"]}"

    # The whole trickle takes 2 s and would parse; only the deadline gives this message.
    done = prices.refresh(_client(httpx.Response(200, content=trickle())), url=prices.API_URL)
    assert not done.ok and "answer took over 0.3 s" in done.message


def test_an_answer_without_these_sizes_changes_nothing():
    done = prices.refresh(_client(page([item("Standard_D4s_v5", 0.19)])), url=prices.API_URL)
    assert not done.ok and "no price for these sizes in eastus" in done.message


def test_a_damaged_cache_is_ignored(monkeypatch):
    monkeypatch.setenv(prices.URL_ENV, prices.API_URL)
    cache = prices.cache_dir() / prices.CACHE_NAME
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text('{"fetched": "2026-11-20T00:00:00+00:00", "prices": {"eastus": 3}}')
    assert prices.vm_price("Standard_ND96asr_v4").origin == "snapshot"
    assert prices.refresh_due()


def test_unreachable_api_leaves_the_snapshot_and_is_not_asked_again_at_once(monkeypatch):
    monkeypatch.setenv(prices.URL_ENV, f"http://127.0.0.1:{closed_port()}/api/retail/prices")
    assert prices.refresh_due()
    done = prices.refresh()
    assert not done.ok
    assert done.message.startswith("prices: the retail prices API could not be reached (")
    assert done.message.endswith("prices unchanged (the 2026-11-09 snapshot)")
    assert not prices.refresh_due()  # tried a moment ago: preview stays fast offline
    assert prices.vm_price("Standard_ND96asr_v4").origin == "snapshot"


def test_an_empty_url_never_asks(monkeypatch):
    monkeypatch.setenv(prices.URL_ENV, "")
    assert not prices.refresh_due()
    assert prices.refresh().message.startswith("prices: not asked (DTRAIN_TUI_PRICES_URL is empty)")


# ---- preview ----------------------------------------------------------------------------------


@pytest.fixture
def fake_api() -> Iterator[str]:
    with serving() as url:
        yield url


def test_preview_with_the_api_unreachable_shows_the_snapshot_price_marked_as_such(
    monkeypatch, capsys
):
    monkeypatch.setenv(prices.URL_ENV, f"http://127.0.0.1:{closed_port()}/api/retail/prices")
    assert main(["preview", "--preset", "pytorch-ddp"]) == 0
    out, err = capsys.readouterr()
    assert (
        "Price: $54.39/h dedicated, low-priority price unknown (2 × Standard_ND96asr_v4 at "
        "$27.197/h; Azure retail prices, eastus, 2026-11-09 snapshot)\n" in out
    )
    (said,) = err.splitlines()
    assert said.startswith("prices: the retail prices API could not be reached")


def test_preview_asks_the_api_when_it_answers_and_shows_its_price(monkeypatch, capsys, fake_api):
    monkeypatch.setenv(prices.URL_ENV, fake_api)
    assert main(["preview", "--preset", "pytorch-ddp"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("prices: refreshed from the Azure retail prices API (eastus, 1 sizes, ")
    assert "Price: $57.00/h dedicated, $11.40/h low-priority (2 × Standard_ND96asr_v4 at " in out
    assert "Azure retail prices, eastus, " in out and "from the API)" in out
    # A day's cache: the next preview does not ask again; --offline never asks.
    assert main(["preview", "--preset", "pytorch-ddp", "--offline"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["preview", "--preset", "pytorch-ddp"]) == 0
    assert capsys.readouterr().err == ""


def test_preview_for_this_machine_shows_no_price_and_asks_nothing(monkeypatch, capsys):
    monkeypatch.setenv(prices.URL_ENV, f"http://127.0.0.1:{closed_port()}/x")
    args = ["preview", "--preset", "pytorch-ddp", "--target", "local"]
    assert main([*args, "--set", "sku=", "--set", "gpus_per_node=2"]) == 0
    out, err = capsys.readouterr()
    assert "Price:" not in out and err == ""
