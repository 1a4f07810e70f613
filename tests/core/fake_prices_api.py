"""Azure's retail prices API as tests meet it: rows and pages in the documented shape, a server
on loopback that answers with them, and a port where nothing answers.

The shape is the one Microsoft documents for https://prices.azure.com/api/retail/prices ("API
response examples" in
https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices): an
object with BillingCurrency, CustomerEntityId, CustomerEntityType, Items, NextPageLink, Count;
each item with currencyCode, retailPrice, armRegionName, meterName, productName, unitOfMeasure,
type, armSkuName… The figures are the tests' own (28.5 is not a real price), so a refreshed
price cannot be mistaken for the snapshot's.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def item(size: str, price: float, meter: str = "", product: str = "", **more) -> dict:
    """One row as the API writes it (fields from the documented example)."""
    short = size.removeprefix("Standard_").replace("_", " ")
    return {
        "currencyCode": "USD",
        "tierMinimumUnits": 0.0,
        "retailPrice": price,
        "unitPrice": price,
        "armRegionName": "eastus",
        "location": "US East",
        "effectiveStartDate": "2026-11-01T00:00:00Z",
        "meterId": "00000000-0000-0000-0000-000000000000",
        "meterName": meter or short,
        "productId": "DZH318Z0TEST",
        "skuId": "DZH318Z0TEST/0001",
        "productName": product or "Virtual Machines NDasr A100 v4 Series",
        "skuName": meter or short,
        "serviceName": "Virtual Machines",
        "serviceId": "DZH313Z7MMC8",
        "serviceFamily": "Compute",
        "unitOfMeasure": "1 Hour",
        "type": "Consumption",
        "isPrimaryMeterRegion": True,
        "armSkuName": size,
        **more,
    }


def page(items: list, next_link: str | None = None) -> dict:
    return {
        "BillingCurrency": "USD",
        "CustomerEntityId": "Default",
        "CustomerEntityType": "Retail",
        "Items": items,
        "NextPageLink": next_link,
        "Count": len(items),
    }


PAGE_1 = page(
    [
        item("Standard_ND96asr_v4", 28.5),
        item("Standard_ND96asr_v4", 31.9, product="Virtual Machines NDasr A100 v4 Series Windows"),
        item("Standard_ND96asr_v4", 9.1, meter="ND96asr v4 Spot"),
        item("Standard_ND96asr_v4", 5.7, meter="ND96asr v4 Low Priority"),
        item("Standard_ND96asr_v4", 400.0, type="Reservation", reservationTerm="1 Year"),
        item("Standard_D4s_v5", 0.19),  # not a size dtrain-tui asked about
    ],
    "https://prices.azure.com:443/api/retail/prices?$filter=x&$skip=1000",
)
PAGE_2 = page([item("Standard_ND96isr_H100_v5", 99.5, product="Virtual Machines NDsr H100 v5")])


def closed_port() -> int:
    """A loopback port nothing listens on: the API unreachable."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _FakeApi(BaseHTTPRequestHandler):
    """The retail prices API on loopback: one page, PAGE_1 without its next link."""

    def do_GET(self) -> None:
        body = json.dumps({**PAGE_1, "NextPageLink": None}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@contextmanager
def serving() -> Iterator[str]:
    """The fake API's URL while it serves."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeApi)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/retail/prices"
    finally:
        server.shutdown()
        server.server_close()
