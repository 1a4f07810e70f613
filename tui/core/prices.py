"""What a plan costs per hour: nodes × the VM size's Azure price, dedicated and low-priority.

Prices come from the snapshot shipped in `presets/prices.json` (each figure with its date and
source), or from the user's cache once the Azure Retail Prices API has answered (`refresh`). Nothing
here touches the network unless `refresh` is called; `refresh` reads at most `MAX_BYTES` a page,
waits at most `TIMEOUT` seconds, and changes nothing when the answer is unreachable, malformed or
too big: it says why in one line.

The API's answer (documented at
https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices, "API
response examples"): `{"BillingCurrency", "CustomerEntityId", "CustomerEntityType", "Items": [{
"currencyCode", "retailPrice", "unitPrice", "armRegionName", "location", "effectiveStartDate",
"meterName", "productName", "skuName", "serviceName", "unitOfMeasure", "type", "armSkuName",
…}], "NextPageLink", "Count"}`. Linux and Windows rows share a meter name and differ in
`productName` ("… Series Windows"); low-priority and Spot are meters of their own
("ND96amsr A100 v4 Low Priority", "… Spot").
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from tui.core.dirs import cache_dir

if TYPE_CHECKING:
    import httpx

    from tui.core.plan_types import LaunchPlan

API_URL = "https://prices.azure.com/api/retail/prices"
URL_ENV = "DTRAIN_TUI_PRICES_URL"
"""Where `refresh` asks (a local fake in tests); set to an empty value, it never asks."""
TIMEOUT = 3.0
"""Seconds `refresh` waits in all (connecting, every page; a name lookup is the system's)."""
MAX_BYTES = 2 << 20
"""The most of one page of the answer that is read; a bigger one changes nothing."""
MAX_PAGES = 4
"""Pages followed at most (the sizes of one region fit in one page of 1,000 rows)."""
FRESH_FOR = timedelta(days=1)
"""A cache younger than this is not asked again by `preview` and the review."""
RETRY_AFTER = timedelta(hours=1)
"""After a failed ask, `refresh_due` waits this long: offline, `preview` stays fast."""
CACHE_NAME = "prices.json"
TRIED_NAME = "prices.tried"
REGION = "eastus"
"""The region shown unless the plan names another (a job's region is its workspace's)."""
_MOST = 10_000.0  # $/h: no VM size costs more; a bigger figure is a broken answer


@dataclass(frozen=True, slots=True)
class VmPrice:
    """One VM size's price per hour in one region, and where the figure comes from."""

    size: str
    region: str
    dedicated: float | None
    low_priority: float | None
    date: str | None
    """The day the figure was read (None: the record is undated)."""
    origin: str
    """`snapshot` (shipped with dtrain-tui) or `api` (read from the API into the cache)."""

    @property
    def label(self) -> str:
        """`Azure retail prices, eastus, 2026-11-09 snapshot`."""
        when = self.date or "undated"
        kind = "snapshot" if self.origin == "snapshot" else "from the API"
        return f"Azure retail prices, {self.region}, {when} {kind}"


@dataclass(frozen=True, slots=True)
class PlanPrice:
    """A plan's price per hour: `nodes` VMs of `size` (`vm` None: no figure for the size)."""

    size: str
    nodes: int
    vm: VmPrice | None

    @property
    def dedicated(self) -> float | None:
        return _times(self.nodes, self.vm.dedicated if self.vm else None)

    @property
    def low_priority(self) -> float | None:
        return _times(self.nodes, self.vm.low_priority if self.vm else None)

    def line(self) -> str:
        """`$54.39/h dedicated, low-priority price unknown (2 × Standard_ND96asr_v4 at $27.20/h;
        Azure retail prices, eastus, 2026-11-09 snapshot)`."""
        if self.vm is None or (self.dedicated is None and self.low_priority is None):
            return f"price unknown for {self.size} (no Azure retail price for it yet)"
        parts = [
            f"{money(self.dedicated)}/h dedicated" if self.dedicated else "dedicated price unknown",
            f"{money(self.low_priority)}/h low-priority"
            if self.low_priority
            else "low-priority price unknown",
        ]
        each = f" at {money(self.vm.dedicated)}/h" if self.vm.dedicated else ""
        return f"{', '.join(parts)} ({self.nodes} × {self.size}{each}; {self.vm.label})"

    def cost_words(self, elapsed: float | None, to_go: float | None, ended: bool) -> str | None:
        """`cost ≈ $12.34 so far · ≈ $56.78 to finish ($54.39/h dedicated; …)`: the
        dedicated price times the job's clock, and times the ETA while it runs."""
        hourly = self.dedicated
        if hourly is None or self.vm is None:
            return None
        parts = []
        if elapsed is not None:
            parts.append(f"≈ {money(hourly * elapsed / 3600)} {'in all' if ended else 'so far'}")
        if to_go is not None and not ended:
            parts.append(f"≈ {money(hourly * to_go / 3600)} to finish")
        if not parts:
            return None
        return f"cost {' · '.join(parts)} ({money(hourly)}/h dedicated; {self.vm.label})"


def money(amount: float | None) -> str:
    """`$1,234.56`; cents under a dollar are kept (`$0.74`)."""
    return "?" if amount is None else f"${amount:,.2f}"


def _times(n: int, each: float | None) -> float | None:
    return None if each is None else round(n * each, 6)


# ---- lookup ----------------------------------------------------------------------------------


def vm_price(size: str, region: str | None = None, *, cached: bool = True) -> VmPrice | None:
    """`size`'s price in `region` (else in `REGION`, else in any region that has one): from the
    cache when the API has answered for it (unless not `cached`), else from the shipped
    snapshot."""
    key = size.lower()
    tables = [(_cached(), "api")] if cached else []
    tables.append((_snapshot(), "snapshot"))
    regions = [region or REGION, *sorted({r for t, _ in tables for r in t} - {region or REGION})]
    for where in regions:
        for table, origin in tables:
            row = table.get(where, {}).get(key)
            if row is not None:
                return VmPrice(
                    row["size"], where, row.get("dedicated"), row.get("low_priority"),
                    row.get("date"), origin,
                )  # fmt: skip
    return None


def plan_price(p: LaunchPlan) -> PlanPrice | None:
    """The price of `p` on Azure ML: None for this machine, or for a plan without a VM size."""
    if p.target.kind != "azureml" or not p.spec.sku:
        return None
    return PlanPrice(p.spec.sku, p.instance_count, vm_price(p.spec.sku))


def snapshot_meta() -> tuple[str, str]:
    """The shipped snapshot's (region, date)."""
    data = _snapshot_file()
    return str(data["region"]), str(data["date"])


def _snapshot_file() -> dict[str, Any]:
    text = resources.files("presets").joinpath("prices.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@cache
def _snapshot() -> dict[str, dict[str, dict[str, Any]]]:
    return _table(_snapshot_file()["prices"])


def _cached() -> dict[str, dict[str, dict[str, Any]]]:
    data = _read_cache()
    return _table(data["prices"]) if data else {}


def _cache_path():
    return cache_dir() / CACHE_NAME


def _read_cache() -> dict[str, Any] | None:
    """The cache, or None when it is missing, too big, or not what `refresh` writes."""
    path = _cache_path()
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        _table(data["prices"])
        datetime.fromisoformat(data["fetched"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return data if isinstance(data, dict) else None


def _table(prices: object) -> dict[str, dict[str, dict[str, Any]]]:
    """{region: {size (lower case): row}}, every figure checked (ValueError when one is bad)."""
    if not isinstance(prices, dict):
        raise ValueError("prices is not an object")
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for region, sizes in prices.items():
        if not isinstance(sizes, dict):
            raise ValueError(f"prices.{region} is not an object")
        for size, row in sizes.items():
            if not isinstance(row, dict):
                raise ValueError(f"prices.{region}.{size} is not an object")
            for kind in ("dedicated", "low_priority"):
                if row.get(kind) is not None and not _sane(row[kind]):
                    raise ValueError(f"prices.{region}.{size}.{kind} is not a price")
            out.setdefault(str(region), {})[str(size).lower()] = {**row, "size": str(size)}
    return out


def _sane(value: object) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0 < value < _MOST
    )


# ---- refresh ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What `refresh` did, in one line for people (`ok`: the cache now holds new prices)."""

    ok: bool
    message: str


class _Refused(Exception):
    """The answer cannot be used; the message says why in a few words."""


def api_url() -> str | None:
    """Where to ask: `DTRAIN_TUI_PRICES_URL` when set (empty: nowhere), else the Azure API."""
    url = os.environ.get(URL_ENV)
    if url is None:
        return API_URL
    return url or None


def refresh_due(now: datetime | None = None) -> bool:
    """Whether the cache is missing or older than `FRESH_FOR`, there is an API to ask, and no ask
    failed in the last `RETRY_AFTER`."""
    if api_url() is None:
        return False
    now = now or datetime.now(timezone.utc)
    try:
        tried = (cache_dir() / TRIED_NAME).stat().st_mtime
        if now - datetime.fromtimestamp(tried, timezone.utc) < RETRY_AFTER:
            return False
    except OSError:
        pass
    data = _read_cache()
    if data is None:
        return True
    fetched = datetime.fromisoformat(data["fetched"])
    if fetched.tzinfo is None:
        fetched = fetched.replace(tzinfo=timezone.utc)
    return now - fetched > FRESH_FOR


def api_filter(sizes: list[str], region: str) -> str:
    """The OData filter: the sizes' hourly pay-as-you-go rows in `region`."""
    names = " or ".join(f"armSkuName eq '{s}'" for s in sizes)
    return (
        "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' "
        f"and armRegionName eq '{region}' and ({names})"
    )


def refresh(
    client: httpx.Client | None = None,
    *,
    sizes: list[str] | None = None,
    region: str = REGION,
    url: str | None = None,
    now: datetime | None = None,
) -> Refreshed:
    """Ask the API for `sizes`' prices in `region` (every size in the SKU table by default) and
    keep what it answers in the cache. Never raises: the message says what happened; a failure
    is remembered so that `refresh_due` does not ask again at once."""
    url = url or api_url()
    if url is None:
        return Refreshed(False, f"prices: not asked ({URL_ENV} is empty); {unchanged(region)}")
    if sizes is None:
        from tui.core.catalog import skus

        sizes = [s.name for s in skus()]
    done = _refresh(client, url, sizes, region, now)
    tried = cache_dir() / TRIED_NAME
    with contextlib.suppress(OSError):
        if done.ok:
            tried.unlink(missing_ok=True)
        else:
            tried.parent.mkdir(parents=True, exist_ok=True)
            tried.touch()
    return done


def _refresh(
    client: httpx.Client | None, url: str, sizes: list[str], region: str, now: datetime | None
) -> Refreshed:
    current = unchanged(region)
    import httpx

    own = client is None
    client = client or httpx.Client(timeout=TIMEOUT, follow_redirects=False)
    try:
        items = _fetch(client, url, api_filter(sizes, region))
        rows = _rows(items, {s.lower(): s for s in sizes}, region)
    except _Refused as err:
        return Refreshed(False, f"prices: the retail prices API's answer {err}; {current}")
    except httpx.HTTPError as err:
        why = str(err).splitlines()[0] if str(err) else type(err).__name__
        return Refreshed(
            False, f"prices: the retail prices API could not be reached ({why}); {current}"
        )
    finally:
        if own:
            client.close()
    if not rows:
        return Refreshed(
            False,
            f"prices: the retail prices API had no price for these sizes in {region}; {current}",
        )
    day = (now or datetime.now(timezone.utc)).date().isoformat()
    try:
        _write_cache(region, rows, day, url, now)
    except OSError as err:
        return Refreshed(
            False, f"prices: read, but the cache could not be written ({err}); {current}"
        )
    return Refreshed(
        True,
        f"prices: refreshed from the Azure retail prices API ({region}, {len(rows)} sizes, {day})",
    )


def unchanged(region: str) -> str:
    """`prices unchanged (cached 2026-11-20)` or `… (the 2026-11-09 snapshot)`."""
    data = _read_cache()
    if data and region in data.get("prices", {}):
        return f"prices unchanged (read from the API {str(data['fetched'])[:10]})"
    return f"prices unchanged (the {snapshot_meta()[1]} snapshot)"


def _fetch(client: httpx.Client, url: str, odata: str) -> list[object]:
    """Every page's Items (at most `MAX_PAGES`, `MAX_BYTES` each, on the first page's host)."""
    items: list[object] = []
    deadline = time.monotonic() + TIMEOUT
    base = httpx_origin(url)
    next_url: str | None = url
    params: dict[str, str] | None = {"$filter": odata}
    for _ in range(MAX_PAGES):
        if next_url is None:
            break
        page = _page(client, next_url, params, deadline)
        got = page.get("Items")
        if not isinstance(got, list):
            raise _Refused("was malformed (Items is not a list)")
        items += got
        link = page.get("NextPageLink")
        if link is not None and not isinstance(link, str):
            raise _Refused("was malformed (NextPageLink is not a link)")
        # A next page elsewhere than the API is not followed.
        next_url = link if link and httpx_origin(link) == base else None
        params = None  # the link carries the filter
    return items


def httpx_origin(url: str) -> tuple[str, str]:
    import httpx

    u = httpx.URL(url)
    return u.scheme, u.netloc.decode()


def _page(
    client: httpx.Client, url: str, params: dict[str, str] | None, deadline: float
) -> dict[str, Any]:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Refused(f"took over {TIMEOUT:g} s")
    with client.stream("GET", url, params=params, timeout=left) as response:
        if response.status_code != 200:
            raise _Refused(f"was HTTP {response.status_code}")
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BYTES:
            raise _Refused(f"was too big ({int(declared):,} bytes, over {MAX_BYTES:,})")
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > MAX_BYTES:
                raise _Refused(f"was too big (over {MAX_BYTES:,} bytes)")
            if time.monotonic() > deadline:
                raise _Refused(f"took over {TIMEOUT:g} s")
    try:
        page = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise _Refused("was malformed (not JSON)") from None
    if not isinstance(page, dict):
        raise _Refused("was malformed (not a JSON object)")
    return page


def _rows(items: list[object], sizes: dict[str, str], region: str) -> dict[str, dict[str, Any]]:
    """{size: {dedicated, low_priority}} from the Linux hourly rows of `sizes` in `region`; the
    latest `effectiveStartDate` wins when a meter has several."""
    found: dict[tuple[str, str], tuple[str, float]] = {}
    for item in items:
        if not isinstance(item, dict):
            raise _Refused("was malformed (an item is not an object)")
        size = sizes.get(str(item.get("armSkuName", "")).lower())
        if size is None or str(item.get("armRegionName", "")).lower() != region.lower():
            continue
        product, meter = str(item.get("productName", "")), str(item.get("meterName", ""))
        if product.endswith("Windows") or meter.endswith("Spot"):
            continue
        if item.get("type", "Consumption") != "Consumption" or item.get("reservationTerm"):
            continue
        if item.get("unitOfMeasure") != "1 Hour" or item.get("currencyCode", "USD") != "USD":
            continue
        price = item.get("retailPrice")
        if price == 0:
            continue  # meters not billed (yet): not a price
        if not _sane(price):
            raise _Refused(f"was malformed (retailPrice {str(price)[:20]!r} for {size})")
        kind = "low_priority" if meter.endswith("Low Priority") else "dedicated"
        since = str(item.get("effectiveStartDate", ""))
        if (size, kind) not in found or since >= found[size, kind][0]:
            found[size, kind] = (since, float(price))  # type: ignore[arg-type]
    rows: dict[str, dict[str, Any]] = {}
    for (size, kind), (_, price) in found.items():
        rows.setdefault(size, {})[kind] = price
    return rows


def _write_cache(
    region: str, rows: dict[str, dict[str, Any]], day: str, url: str, now: datetime | None
) -> None:
    from tui.core.files import write_atomic

    data = _read_cache() or {"prices": {}}
    data["fetched"] = (now or datetime.now(timezone.utc)).isoformat()
    data["source"] = url
    data["prices"][region] = {size: {**row, "date": day} for size, row in rows.items()}
    path = _cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=1, sort_keys=True))
