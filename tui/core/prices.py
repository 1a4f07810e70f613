"""What a plan costs per hour: nodes × the VM size's Azure price, dedicated and low-priority.

Prices come from the snapshot shipped in `presets/prices.json` (each figure with its date and
source), or from the user's cache once the Azure Retail Prices API has answered (`refresh`). Nothing
here touches the network unless `refresh` is called; `refresh` reads at most `MAX_BYTES` a page,
waits at most `TIMEOUT` seconds, and changes nothing when the answer is unreachable, malformed or
too big: it says why in one line. Reading the API's answer is `prices_api`.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from tui.core.dirs import cache_dir
from tui.core.prices_api import (
    API_URL,
    MAX_BYTES,
    TIMEOUT,
    URL_ENV,
    Refused,
    api_filter,
    fetch_items,
    price_rows,
    sane,
)

if TYPE_CHECKING:
    import httpx

    from tui.core.plan_types import LaunchPlan

FRESH_FOR = timedelta(days=1)
"""A cache younger than this is not asked again by `preview` and the review."""
RETRY_AFTER = timedelta(hours=1)
"""After a failed ask, `refresh_due` waits this long: offline, `preview` stays fast."""
CACHE_NAME = "prices.json"
TRIED_NAME = "prices.tried"
REGION = "eastus"
"""The region shown unless the plan names another (a job's region is its workspace's)."""


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
            "dedicated price unknown"
            if self.dedicated is None
            else f"{money(self.dedicated)}/h dedicated",
            "low-priority price unknown"
            if self.low_priority is None
            else f"{money(self.low_priority)}/h low-priority",
        ]
        # the unit price as the price list gives it (`$27.197`), so that nodes × it is the
        # total shown: to the cent, 2 × $27.20 would not be $54.39
        each = "" if self.vm.dedicated is None else f" at {_listed(self.vm.dedicated)}/h"
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
    """`$1,234.56`; cents under a dollar are kept (`$0.74`); a positive amount under a cent keeps
    two significant digits (`$0.0042`, never `$0.00`), and one under `TINY` says so."""
    if amount is None:
        return "?"
    if amount <= 0 or amount >= 0.01:
        return f"${amount:,.2f}"
    if amount < TINY:
        return f"under ${TINY:.6f}"
    digits = 1 - math.floor(math.log10(amount))
    return f"${amount:.{digits}f}".rstrip("0")


TINY = 1e-6
"""Below this a price is written `under $0.000001`: more zeros tell nobody anything."""


def _listed(amount: float) -> str:
    """A unit price to the digits the price list has (up to a tenth of a cent): `$27.197`."""
    shown = money(amount)
    precise = f"${amount:,.3f}"
    return shown if amount < 0.01 or precise.endswith("0") else precise


def _times(n: int, each: float | None) -> float | None:
    # A positive price stays positive: rounding to a fixed number of places made a tiny one 0.
    return None if each is None else n * each


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
    # RecursionError: JSON nested deeper than the parser's stack (a damaged file, like the rest).
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, MemoryError):
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
                if row.get(kind) is not None and not sane(row[kind]):
                    raise ValueError(f"prices.{region}.{size}.{kind} is not a price")
            out.setdefault(str(region), {})[str(size).lower()] = {**row, "size": str(size)}
    return out


# ---- refresh ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What `refresh` did, in one line for people (`ok`: the cache now holds new prices)."""

    ok: bool
    message: str


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
        items = fetch_items(client, url, api_filter(sizes, region))
        rows = price_rows(items, {s.lower(): s for s in sizes}, region)
    except Refused as err:
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
