"""A forward HTTP proxy that sends every request to one loopback port, Host header unchanged.

Storage URLs built the way Azure builds them (`http://<account>.blob.<endpoint>/…`) name a host
that does not resolve here. With `HTTP_PROXY` pointing at this proxy, requests and httpx hand
it such URLs and it forwards them to Azurite, which reads the account from the Host header
(its "production-style URL" mode): the code under test builds real Azure-shaped URLs.
"""

from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

_HOP_BY_HOP = {"connection", "proxy-connection", "keep-alive", "transfer-encoding", "te"}


class HostProxy:
    """Forwards to 127.0.0.1:`port`; `url` goes in HTTP_PROXY; `hosts` lists who was proxied."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.hosts: list[str] = []
        self.requests: list[str] = []
        """`METHOD /path?query` of every request forwarded, in order."""
        handler = type("Handler", (_Forward,), {"proxy": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> HostProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class _Forward(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    proxy: HostProxy

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._forward()

    def do_HEAD(self) -> None:
        self._forward()

    def do_PUT(self) -> None:
        self._forward()

    def _forward(self) -> None:
        target = urlsplit(self.path)
        path = target.path + (f"?{target.query}" if target.query else "")
        self.proxy.hosts.append(target.netloc)
        self.proxy.requests.append(f"{self.command} {path}")
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
        upstream = http.client.HTTPConnection("127.0.0.1", self.proxy.port, timeout=30)
        try:
            upstream.request(self.command, path, body=body, headers=headers)
            response = upstream.getresponse()
            data = response.read()
        finally:
            upstream.close()
        self.send_response(response.status, response.reason)
        for key, value in response.getheaders():
            if key.lower() not in _HOP_BY_HOP and key.lower() != "content-length":
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
