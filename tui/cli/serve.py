"""`dtrain-tui serve`: the same wizard in a browser, through textual-serve.

Each browser tab that opens the page starts its own wizard process (textual-serve runs the
command once per websocket), so two tabs are two wizards. Closing a tab ends that process at
once, with no one to answer the terminal app's "keep it running?" question, so a served wizard
starts its local jobs detached from itself: they keep running, as the question's default would
have them, and `dtrain-tui jobs`, `dtrain-tui logs NAME` or a new tab finds them.

The server has no sign-in. Whoever reaches the page drives the wizard as the user who started
it, so it listens on the loopback address unless `--public` says otherwise.
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import socket
import sys

from tui.cli.inputs import CliError

LOOPBACK_NAMES = ("localhost",)

EXPOSES = (
    "anyone who can reach it gets the wizard with no sign-in, running as you: they can read and "
    "write files you can (export paths, code folders), start jobs on this machine, and submit "
    "to Azure ML with your credentials"
)
"""What a non-local `--host` hands out, said before it is allowed and again when it starts."""


SERVED_APP = "from tui.cli.serve import served_app; served_app()"
"""What textual-serve runs for each tab."""


def served_app() -> None:
    """One tab's wizard: the usual app, its local jobs not tied to its process (a closed tab
    would otherwise cancel them, as a killed terminal app does)."""
    from functools import partial

    from tui.app import DtrainApp, default_backends

    backends = default_backends()
    if "local" in backends:
        backends["local"] = partial(backends["local"], detach=True)
    DtrainApp(backends=backends).run()


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
    try:
        from textual_serve.server import Server
    except ImportError:
        raise CliError("serve needs textual-serve: `pip install 'dtrain-tui[serve]'`") from None

    class WizardServer(Server):
        """textual-serve's server, with its page's URLs taken from the request.

        textual-serve writes the websocket's address into the page from `host:port`, which
        for 0.0.0.0 is no address a browser elsewhere can reach; the Host header the browser
        sent is (textual-serve issue #42)."""

        async def handle_index(self, request):
            # The base handler reads `public_url` without awaiting first, so setting it here is
            # not seen by another request.
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def on_startup(self, app) -> None:
            host = args.host
            if not local:
                print(f"dtrain-tui serve: listening on {host}: {EXPOSES}", flush=True)
                if host.strip("[]") in ("0.0.0.0", "::"):  # every address: name the machine
                    host = socket.gethostname()
            url = url_for(host, args.port)
            print(
                f"dtrain-tui serve: open {url} (each tab is its own wizard; Ctrl+C stops the "
                "server; jobs already started keep running)",
                flush=True,
            )

    command = shlex.join([sys.executable, "-c", SERVED_APP])
    server = WizardServer(command, host=args.host, port=args.port, title="dtrain-tui")
    try:
        _try_bind(args.host, args.port)  # before the URL is printed (aiohttp binds after that)
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
