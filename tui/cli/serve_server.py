"""textual-serve's server as `dtrain-tui serve` runs it: one wizard process per tab, let in only
from the served page, at most `--max-tabs` at once, each ended for sure when its tab goes.

textual-serve (1.1) starts an app for any websocket from any page, at any size the URL asks
for, and when a tab goes it asks the app to quit and waits for ever; an app blocked writing to a
tab that stopped reading never hears it. `WizardServer` replaces the page and websocket handlers
with ones that apply `tui/cli/serve_guard.py`'s rules first, and `Wizard` replaces how a tab's
process starts and stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import signal
from collections.abc import Callable, Sequence

from aiohttp import WSCloseCode, WSMsgType, hdrs, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from tui.cli.serve_guard import (
    DEFAULT_SIZE,
    clamp_size,
    host_allowed,
    origin_allowed,
)

SAY_WHY_CLOSED = """<script>
/* dtrain-tui serve: the page's "Session ended." says why the server closed it (a full house). */
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('close', (event) => {
        const message = document.querySelector('.closed-dialog .message');
        if (event.reason && message) message.textContent = event.reason;
      });
    }
  };
})();
</script>"""
"""Put first in the page's head: textual-serve's page shows "Session ended." on any close; a
refusal's reason (the websocket close frame's text) replaces it."""


class Wizard(AppService):
    """One tab's wizard process, started without a shell (so the process killed is the app,
    not a shell around it) and stopped for sure."""

    def __init__(self, argv: Sequence[str], *, grace: float, **kwargs) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)
        self.grace = grace
        self.tab_gone = False
        """Set once the tab's websocket is closed: the app's output is read and dropped."""

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self._process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
        )
        self._stdin = self._process.stdin
        return self._process

    async def on_data(self, payload: bytes) -> None:
        if not self.tab_gone:
            try:
                await self.remote_write_bytes(payload)
            except Exception:  # the tab went mid-write; its app must still be read to quit
                self.tab_gone = True

    async def on_meta(self, data: bytes) -> None:
        if not self.tab_gone:
            try:
                await super().on_meta(data)
            except Exception:
                self.tab_gone = True

    async def stop(self) -> None:
        """Ask the app to quit and wait `grace` seconds for it; then kill it.

        The app's output is drained meanwhile: an app blocked writing to a tab that stopped
        reading would otherwise never get to its quit, and SIGTERM does not reach it either
        (Textual handles it on the same blocked loop)."""
        process, task = self._process, self._task
        if process is None or task is None:
            return
        self._task = None
        self.tab_gone = True
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        task.cancel()  # it may wait on the tab for ever; it leaves the app's pipes to _drain
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        drain = asyncio.ensure_future(_drain(process))
        try:
            await asyncio.wait_for(self._quit_and_wait(process), self.grace)
        except asyncio.TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        finally:
            await process.wait()  # after a kill this is immediate
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await drain
            if process.stdin is not None:
                process.stdin.close()

    async def _quit_and_wait(self, process: asyncio.subprocess.Process) -> None:
        await self.send_meta({"type": "quit"})
        await process.wait()


async def _drain(process: asyncio.subprocess.Process) -> None:
    """Read and drop what the app writes from now on (both pipes at once: either may be the
    one it is blocked on), so a write it is stuck in returns."""

    async def drop(stream: asyncio.StreamReader | None) -> None:
        with contextlib.suppress(Exception):
            while stream is not None and await stream.read(65536):
                pass

    await asyncio.gather(drop(process.stdout), drop(process.stderr))


class WizardServer(Server):
    """textual-serve's server with the page's URLs taken from the request, and what
    `serve_guard` allows applied to every request and websocket."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        host: str,
        port: int,
        hosts: frozenset[str],
        max_tabs: int,
        grace: float,
        announce: Callable[[], None],
        say: Callable[[str], None],
    ) -> None:
        super().__init__(" ".join(argv), host=host, port=port, title="dtrain-tui")
        self.argv = list(argv)
        self.hosts = hosts
        self.max_tabs = max_tabs
        self.grace = grace
        self.announce = announce
        self.say = say
        self.tabs = 0
        """Wizards running now, counted from before each starts until its process is gone."""
        self.sockets: set[web.WebSocketResponse] = set()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.check_host)
        return app

    @web.middleware
    async def check_host(self, request: web.Request, handler) -> web.StreamResponse:
        """Refuse any request whose Host is not this server's (DNS rebinding), page included."""
        host = request.headers.get(hdrs.HOST)
        if not host_allowed(host, self.hosts):
            self.say(f"refused a request for Host {host!r}: not a name of this server")
            names = ", ".join(sorted(self.hosts))
            raise web.HTTPForbidden(
                text=f"dtrain-tui serve answers to an IP address or to {names}, not to "
                f"{host!r}; if that name is this machine's, start serve with --allow-host NAME\n"
            )
        return await handler(request)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        # textual-serve writes the websocket's address into the page from `host:port`, which
        # for 0.0.0.0 is no address a browser elsewhere can reach; the Host header the browser
        # sent is (textual-serve issue #42), and check_host has vetted it. The base handler
        # reads `public_url` without awaiting first, so no other request sees this one's.
        self.public_url = f"{request.scheme}://{request.host}"
        page = await super().handle_index(request)
        # textual-serve's page has no <title>: the browser's tab would show the bare address.
        title = f"<title>{html.escape(self.title)}</title>\n"
        page.text = page.text.replace("<head>", "<head>\n" + title + SAY_WHY_CLOSED, 1)
        return page

    def serve(self, debug: bool = False) -> None:
        """textual-serve's `serve`, announcing the URL once it is listening (textual-serve
        has nothing to call then, so a client that read the URL could find no one there)."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for stop in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows
                loop.add_signal_handler(stop, self.request_exit)
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=lambda _running_on: self.announce(),
        )

    async def on_startup(self, app: web.Application) -> None:
        pass  # textual-serve prints its logo here; serve() announces once listening

    async def on_shutdown(self, app: web.Application) -> None:
        # Close every tab's websocket so its wizard is stopped (with its grace) before exit.
        for socket in list(self.sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"dtrain-tui serve stopped")

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get(hdrs.ORIGIN)
        if not origin_allowed(origin, request.headers.get(hdrs.HOST)):
            self.say(f"refused a websocket from {origin or 'no origin'}: not this server's page")
            raise web.HTTPForbidden(
                text="dtrain-tui serve: a wizard opens only from its own page "
                f"(this websocket came from {origin or 'no page'})\n"
            )
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        if self.tabs >= self.max_tabs:
            open_now = f"{self.tabs} wizard{'s are' if self.tabs != 1 else ' is'} open"
            self.say(f"refused a tab: {open_now} (--max-tabs {self.max_tabs})")
            reason = f"{open_now}, the most serve allows (--max-tabs): close one, then Restart"
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=reason.encode())
            return websocket
        size = clamp_size(request.query.get("width"), request.query.get("height"))
        self.tabs += 1  # before any await, so two tabs cannot both take the last place
        self.sockets.add(websocket)
        wizard = Wizard(
            self.argv,
            grace=self.grace,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        try:
            await wizard.start(*(size or DEFAULT_SIZE))
            await self._process_messages(websocket, wizard)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            self.say(f"a tab's wizard failed: {error}")
        finally:
            self.sockets.discard(websocket)
            try:
                await asyncio.shield(wizard.stop())
            finally:
                self.tabs -= 1
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, wizard: Wizard) -> None:
        """What the page sends: keys, sizes (clamped), pings, focus. Anything malformed is
        dropped rather than passed to the app."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, data = json.loads(message.data)[:2]
            except (ValueError, TypeError, KeyError):
                continue
            if kind == "stdin" and isinstance(data, str):
                await wizard.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                if size := clamp_size(data.get("width"), data.get("height")):
                    await wizard.set_terminal_size(*size)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await wizard.blur()
            elif kind == "focus":
                await wizard.focus()
