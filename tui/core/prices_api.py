"""The Azure Retail Prices API's answer, read with bounds: at most `MAX_PAGES` pages of at most
`MAX_BYTES` each, within `TIMEOUT` seconds in all, next pages only on the API's own host, and
every figure checked; an answer that breaks any of these raises `Refused`, saying why.

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

import json
import math
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

API_URL = "https://prices.azure.com/api/retail/prices"
URL_ENV = "DTRAIN_TUI_PRICES_URL"
"""Where `refresh` asks (a local fake in tests); set to an empty value, it never asks."""
TIMEOUT = 3.0
"""Seconds `refresh` waits in all (connecting, every page; a name lookup is the system's)."""
MAX_BYTES = 2 << 20
"""The most of one page of the answer that is read; a bigger one changes nothing."""
MAX_PAGES = 4
"""Pages followed at most (the sizes of one region fit in one page of 1,000 rows)."""
_MOST = 10_000.0  # $/h: no VM size costs more; a bigger figure is a broken answer


def sane(value: object) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0 < value < _MOST
    )


class Refused(Exception):
    """The answer cannot be used; the message says why in a few words."""


def api_filter(sizes: list[str], region: str) -> str:
    """The OData filter: the sizes' hourly pay-as-you-go rows in `region`."""
    names = " or ".join(f"armSkuName eq '{s}'" for s in sizes)
    return (
        "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' "
        f"and armRegionName eq '{region}' and ({names})"
    )


def fetch_items(client: httpx.Client, url: str, odata: str) -> list[object]:
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
            raise Refused("was malformed (Items is not a list)")
        items += got
        link = page.get("NextPageLink")
        if link is not None and not isinstance(link, str):
            raise Refused("was malformed (NextPageLink is not a link)")
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
        raise Refused(f"took over {TIMEOUT:g} s")
    with client.stream("GET", url, params=params, timeout=left) as response:
        if response.status_code != 200:
            raise Refused(f"was HTTP {response.status_code}")
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BYTES:
            raise Refused(f"was too big ({int(declared):,} bytes, over {MAX_BYTES:,})")
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > MAX_BYTES:
                raise Refused(f"was too big (over {MAX_BYTES:,} bytes)")
            if time.monotonic() > deadline:
                raise Refused(f"took over {TIMEOUT:g} s")
    try:
        page = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
        raise Refused("was malformed (not JSON)") from None
    if not isinstance(page, dict):
        raise Refused("was malformed (not a JSON object)")
    return page


def price_rows(
    items: list[object], sizes: dict[str, str], region: str
) -> dict[str, dict[str, Any]]:
    """{size: {dedicated, low_priority}} from the Linux hourly rows of `sizes` in `region`; the
    latest `effectiveStartDate` wins when a meter has several."""
    found: dict[tuple[str, str], tuple[str, float]] = {}
    for item in items:
        if not isinstance(item, dict):
            raise Refused("was malformed (an item is not an object)")
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
        if not sane(price):
            raise Refused(f"was malformed (retailPrice {str(price)[:20]!r} for {size})")
        kind = "low_priority" if meter.endswith("Low Priority") else "dedicated"
        since = str(item.get("effectiveStartDate", ""))
        if (size, kind) not in found or since >= found[size, kind][0]:
            found[size, kind] = (since, float(price))  # type: ignore[arg-type]
    rows: dict[str, dict[str, Any]] = {}
    for (size, kind), (_, price) in found.items():
        rows.setdefault(size, {})[kind] = price
    return rows
