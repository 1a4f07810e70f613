"""`dtrain-tui serve`: the same wizard in a browser, through textual-serve.

Each browser tab that opens the page starts its own wizard process (textual-serve runs the
command once per websocket), so two tabs are two wizards. Closing a tab ends that process at
once, with no one to answer the terminal app's "keep it running?" question, so a served wizard
starts its local jobs detached from itself: they keep running, as the question's default would
have them, and `dtrain-tui jobs`, `dtrain-tui logs NAME` or a new tab finds them.

The server has no sign-in. Whoever reaches the page drives the wizard as the user who started
it, so it listens on the loopback address unless `--public` says otherwise, and what else keeps
other pages and other names out (origin, Host, a cap on tabs, terminal size, stopping a gone
tab's wizard) is in `serve_guard.py` (the rules) and `serve_server.py` (where they apply).
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys

from tui.cli.inputs import CliError
from tui.cli.serve_guard import DEFAULT_MAX_TABS, STOP_GRACE_S, allowed_hosts, host_name

LOOPBACK_NAMES = ("localhost",)

EXPOSES = (
    "anyone who can reach it gets the wizard with no sign-in, running as you: they can read and "
    "write files you can (export paths, code folders), start jobs on this machine, and submit "
    "to Azure ML with your credentials"
)
"""What a non-local `--host` hands out, said before it is allowed and again when it starts."""


SERVED_APP = "from tui.cli.served_app import served_app; served_app()"
"""What the server runs for each tab."""


def add_parser(sub) -> None:
    """Register `serve` on the sub-command parsers of `dtrain-tui`."""
    p = sub.add_parser(
        "serve",
        help="serve the wizard in a browser (textual-serve): each tab gets its own wizard",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; "
        "from elsewhere use an SSH tunnel, `ssh -L 8000:127.0.0.1:8000 HOST`)",
    )
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--public",
        action="store_true",
        help=f"allow a --host other than loopback; {EXPOSES}",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the page may be opened by besides localhost and IP addresses (the --host "
        "name and, with --public on every address, this machine's are already allowed); other "
        "names are refused so a web page cannot rename itself onto this server (DNS rebinding); "
        "repeat for several",
    )
    p.add_argument(
        "--max-tabs",
        type=int,
        default=DEFAULT_MAX_TABS,
        metavar="N",
        help=f"wizards served at once (default {DEFAULT_MAX_TABS}); a tab beyond them is told why",
    )


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_for(host: str, port: int) -> str:
    """The address a browser on this machine opens (an IPv6 host in brackets)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def cmd_serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise CliError(f"--port {args.port}: choose a port from 1 to 65535")
    local = is_loopback(args.host)
    if not local and not args.public:
        raise CliError(
            f"--host {args.host} listens beyond this machine: {EXPOSES}. Add --public if that "
            "is what you want, or keep the default 127.0.0.1 and reach it through an SSH tunnel"
        )
    if args.max_tabs < 1:
        raise CliError(f"--max-tabs {args.max_tabs}: serve at least 1 tab")
    for name in args.allow_host:
        if not name.strip() or any(c in name for c in "/ :@[]"):
            raise CliError(
                f"--allow-host {name!r}: give a host name alone, with no port or path "
                "(IP addresses need no --allow-host)"
            )
    try:
        from tui.cli.serve_server import WizardServer
    except ImportError:
        from tui.planning.preflight import extra_install

        raise CliError(f"serve needs textual-serve: `{extra_install('serve')}`") from None

    shown = args.host
    names = list(args.allow_host)
    if not local and host_name(args.host) in ("0.0.0.0", "::"):  # every address: name the machine
        shown = socket.gethostname()
        names.append(shown)

    def announce() -> None:
        if not local:
            print(f"dtrain-tui serve: listening on {args.host}: {EXPOSES}", flush=True)
        print(
            f"dtrain-tui serve: open {url_for(shown, args.port)} (each tab is its own wizard, "
            f"{args.max_tabs} at most; Ctrl+C stops the server; jobs already started keep "
            "running)",
            flush=True,
        )

    server = WizardServer(
        [sys.executable, "-c", SERVED_APP],
        host=args.host,
        port=args.port,
        hosts=allowed_hosts(args.host, names),
        max_tabs=args.max_tabs,
        grace=STOP_GRACE_S,
        announce=announce,
        say=lambda line: print(f"dtrain-tui serve: {line}", flush=True),
    )
    try:
        _try_bind(args.host, args.port)  # a taken port: one line, before anything starts
        server.serve()
    except OSError as err:  # the port is taken, or the address is not this machine's
        raise CliError(
            f"cannot listen on {args.host}:{args.port} ({err.strerror or err}); "
            "choose another with --port or --host"
        ) from None
    return 0


def _try_bind(host: str, port: int) -> None:
    """Raise the OSError that listening on host:port would raise now, as aiohttp binds."""
    for family, kind, proto, _, address in socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    ):
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(address)
