"""What `dtrain-tui serve` lets in: which Host names, which page origins, what terminal size.

Plain rules on strings and numbers, no web server here, so each is tested on its own. The
server (`tui/cli/serve_server.py`) applies them before any wizard starts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

MAX_WIDTH = 500
MAX_HEIGHT = 200
"""The largest terminal a tab gets, in cells: wider than a 4K screen at the page's 16 px font.
Textual keeps several buffers of the whole screen, so an unbounded `?width=10000&height=10000`
grew one wizard to 1.1 GB."""

DEFAULT_SIZE = (80, 24)
"""A tab's size when the page's URL gives none that reads as numbers (as textual-serve does)."""

DEFAULT_MAX_TABS = 8
"""Wizards served at once unless `--max-tabs` says otherwise (each is a process of ~50 MB)."""

STOP_GRACE_S = 5.0
"""How long a wizard whose tab went has to quit before it is killed."""

LOOPBACK_NAMES = frozenset({"localhost"})


def host_name(header: str) -> str:
    """The name in a Host header, without its port or an IPv6 address's brackets, in lower
    case and without a trailing dot (`LocalHost.:8000` -> `localhost`)."""
    header = header.strip()
    if header.startswith("["):
        name = header[1 : header.find("]")] if "]" in header else header[1:]
    elif header.count(":") == 1:
        name = header.split(":", 1)[0]
    else:  # a bare name, or an IPv6 address sent without brackets
        name = header
    return name.lower().rstrip(".")


def is_address(name: str) -> bool:
    """Whether `name` is an IP address written out (`127.0.0.1`, `::1`), not a name."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def allowed_hosts(listen_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a request's Host may carry: `localhost`, the name `serve` listens on when it
    is a name, and the names given with `--allow-host`."""
    names = set(LOOPBACK_NAMES)
    if (listened := host_name(listen_host)) and not is_address(listened):
        names.add(listened)
    names.update(host_name(name) for name in extra)
    return frozenset(names)


def host_allowed(header: str | None, names: frozenset[str]) -> bool:
    """Whether a request with this Host header may be answered.

    DNS rebinding is a page on a name the attacker controls (`attacker.example`) whose name is
    then pointed at this machine: the browser sends `Host: attacker.example`. Only names carry
    that risk, so an address written as digits is always accepted (it is what the browser
    connected to), and a name only when it is one of `names`. The port is not compared: an SSH
    tunnel may forward another local port to this one."""
    if not header:
        return False
    name = host_name(header)
    return is_address(name) or name in names


def origin_allowed(origin: str | None, host_header: str | None) -> bool:
    """Whether a websocket opened by a page at `origin` comes from the served page itself.

    Browsers apply no same-origin rule to websockets and send the opening page's origin
    instead; the served page lives at the address the browser asked for, so its origin is
    `http(s)://` + that request's Host. A missing Origin (no browser sent it) or `null`
    (a sandboxed frame, a `file://` page) is not the served page."""
    if not origin or not host_header or origin.strip().lower() == "null":
        return False
    parts = urlsplit(origin.strip())
    if parts.scheme.lower() not in ("http", "https") or parts.path not in ("", "/"):
        return False
    return parts.netloc.lower() == host_header.strip().lower()


def _cells(value: object, largest: int) -> int | None:
    """A count of cells from a URL or a resize message, within 1..largest; None when it does
    not read as a whole number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            return None
    if not isinstance(value, int):
        return None
    return min(max(value, 1), largest)


def clamp_size(width: object, height: object) -> tuple[int, int] | None:
    """A terminal size within 1..MAX_WIDTH x 1..MAX_HEIGHT, or None when either number does
    not read as one."""
    w, h = _cells(width, MAX_WIDTH), _cells(height, MAX_HEIGHT)
    return None if w is None or h is None else (w, h)
