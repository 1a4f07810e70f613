"""A small HTTP/1.1 proxy on loopback that sits between a follower and Azurite and breaks things.

Each request from the client is either relayed (over a fresh upstream connection, the client's
connection kept alive) or answered with a fault that `choose(request)` picks:

| fault                  | what the client sees                                                |
|------------------------|---------------------------------------------------------------------|
| `drop_mid_body`        | status and headers, part of the body, then the connection closes    |
| `drop_before_response` | the connection closes before any byte of the response              |
| `reset`                | a TCP reset (SO_LINGER 0) instead of a response                     |
| `status_500` … `_504`, `status_429` | that status, with `Retry-After` for 429/503              |
| `truncated_body`       | a 206 whose body is cut short, Content-Length matching the cut but   |
|                        | Content-Range still claiming the whole range                        |
| `sas_expired`          | 403 AuthenticationFailed; that SAS signature stays refused after     |
| `stall`                | no answer until the client gives up (its read timeout fires) and     |
|                        | closes the connection; `stall_seconds` is only a ceiling            |
| `ignore_range`         | not a fault: Range is dropped upstream, so Azurite answers 200       |
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

STATUS_FAULTS = {  # status, reason, whether Azure Storage sends Retry-After with it
    "status_500": (500, "Internal Server Error", False),
    "status_502": (502, "Bad Gateway", False),
    "status_503": (503, "Server Busy", True),
    "status_504": (504, "Gateway Timeout", False),
    "status_429": (429, "Too Many Requests", True),
}
FAULTS = (
    "drop_mid_body",
    "drop_before_response",
    "reset",
    *STATUS_FAULTS,
    "truncated_body",
    "sas_expired",
    "stall",
)
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection"}


@dataclass
class Request:
    method: str
    target: str
    headers: list[tuple[str, str]]

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    @property
    def sig(self) -> str | None:
        return parse_qs(urlsplit(self.target).query).get("sig", [None])[0]


@dataclass
class Response:
    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes

    def encode(self, body: bytes | None = None, content_length: int | None = None) -> bytes:
        body = self.body if body is None else body
        length = len(body) if content_length is None else content_length
        lines = [f"HTTP/1.1 {self.status} {self.reason}"]
        lines += [f"{k}: {v}" for k, v in self.headers if k.lower() not in HOP_BY_HOP]
        lines.append(f"Content-Length: {length}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def error_response(status: int, reason: str, code: str, retry_after: str | None) -> Response:
    body = (
        '<?xml version="1.0" encoding="utf-8"?><Error><Code>'
        f"{code}</Code><Message>injected by the test proxy</Message></Error>"
    ).encode()
    headers = [("Content-Type", "application/xml"), ("x-ms-error-code", code)]
    if retry_after is not None:
        headers.append(("Retry-After", retry_after))
    return Response(status, reason, headers, body)


class FaultProxy:
    """The proxy; `async with FaultProxy(port, choose) as proxy:` then use `proxy.rewrite(url)`."""

    def __init__(
        self,
        upstream_port: int,
        choose: Callable[[Request], str | None] = lambda request: None,
        *,
        stall_seconds: float = 60.0,
        retry_after: str = "0",
    ) -> None:
        self.upstream_port = upstream_port
        self.choose = choose
        self.stall_seconds = stall_seconds
        self.retry_after = retry_after
        self.port = 0
        self.requests = 0
        self.injected: Counter[str] = Counter()
        """Faults actually injected, by kind (a fault that could not apply is not counted)."""
        self.refused_expired = 0
        """Requests refused because they reused a SAS signature that had "expired"."""
        self.ignored_ranges = 0
        self.faults_on_data = 0
        """Faults injected into a response that carried log bytes (the interesting ones)."""
        self._expired_sigs: set[str] = set()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def faults(self) -> int:
        return sum(self.injected.values())

    def rewrite(self, url: str) -> str:
        """`url` (pointing at Azurite) pointed at this proxy instead."""
        parts = urlsplit(url)
        return parts._replace(netloc=f"127.0.0.1:{self.port}").geturl()

    async def __aenter__(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            while await self._one_exchange(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:
            # Only __aexit__ cancels. Python 3.11's stream callback would log a cancelled
            # handler as an unhandled error (it calls task.exception()), so end quietly.
            pass
        finally:
            self._writers.discard(writer)
            self._tasks.discard(task)
            writer.transport.abort()

    async def _one_exchange(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        """Serve one request; False when the client connection is finished."""
        head = await reader.readuntil(b"\r\n\r\n")
        request = parse_request(head)
        self.requests += 1
        if request.sig in self._expired_sigs:
            self.refused_expired += 1
            writer.write(error_response(403, "Forbidden", "AuthenticationFailed", None).encode())
            await writer.drain()
            return True

        fault = self.choose(request)
        if fault == "drop_before_response":
            self.injected[fault] += 1
            return False
        if fault == "reset":
            self.injected[fault] += 1
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return False
        if fault in STATUS_FAULTS:
            self.injected[fault] += 1
            status, reason, sends_retry_after = STATUS_FAULTS[fault]
            code = "ServerBusy" if sends_retry_after else "InternalError"
            retry_after = self.retry_after if sends_retry_after else None
            writer.write(error_response(status, reason, code, retry_after).encode())
            await writer.drain()
            return True
        if fault == "sas_expired" and request.sig is not None:
            self.injected[fault] += 1
            self._expired_sigs.add(request.sig)
            writer.write(error_response(403, "Forbidden", "AuthenticationFailed", None).encode())
            await writer.drain()
            return True
        if fault == "stall":
            self.injected[fault] += 1
            # Until the client hangs up (it sends nothing more while it waits): a stall that
            # ends on a clock could answer before a loaded client's own timeout fires.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(reader.read(), self.stall_seconds)
            return False

        if fault == "ignore_range":
            self.ignored_ranges += 1
            request.headers = [(k, v) for k, v in request.headers if k.lower() != "range"]
        response = await self._forward(request)
        if fault in ("truncated_body", "drop_mid_body") and response.status in (200, 206):
            self.faults_on_data += bool(response.body)
        if request.method == "HEAD":
            writer.write(response.encode(b"", content_length=_content_length(response)))
            await writer.drain()
            return True
        if fault == "truncated_body" and response.status == 206 and len(response.body) >= 2:
            self.injected[fault] += 1
            writer.write(response.encode(response.body[: len(response.body) // 2]))
            await writer.drain()
            return True
        if fault in ("drop_mid_body", "truncated_body"):
            self.injected["drop_mid_body"] += 1
            whole = response.encode()
            head_end = whole.index(b"\r\n\r\n") + 4
            cut = head_end + len(response.body) // 2 if response.body else head_end // 2
            writer.write(whole[:cut])
            await writer.drain()
            return False
        writer.write(response.encode())
        await writer.drain()
        return True

    async def _forward(self, request: Request) -> Response:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        try:
            lines = [f"{request.method} {request.target} HTTP/1.1"]
            lines += [f"{k}: {v}" for k, v in request.headers if k.lower() not in HOP_BY_HOP]
            lines.append("Connection: close")
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        return parse_response(raw, head_only=request.method == "HEAD")


def parse_request(head: bytes) -> Request:
    first, *header_lines = head.decode("latin-1").split("\r\n")
    method, target, _version = first.split(" ", 2)
    headers = [tuple(line.split(":", 1)) for line in header_lines if ":" in line]
    return Request(method, target, [(k.strip(), v.strip()) for k, v in headers])


def parse_response(raw: bytes, head_only: bool = False) -> Response:
    head, _, rest = raw.partition(b"\r\n\r\n")
    first, *header_lines = head.decode("latin-1").split("\r\n")
    _version, status, reason = [*first.split(" ", 2), ""][:3]
    headers = [tuple(part.strip() for part in line.split(":", 1)) for line in header_lines]
    response = Response(int(status), reason, [(k, v) for k, v in headers], b"")
    if head_only:
        response.headers = [(k, v) for k, v in headers]
        return response
    chunked = any(k.lower() == "transfer-encoding" and "chunked" in v for k, v in headers)
    response.body = dechunk(rest) if chunked else rest
    return response


def dechunk(data: bytes) -> bytes:
    out, pos = bytearray(), 0
    while True:
        line_end = data.index(b"\r\n", pos)
        size = int(data[pos:line_end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += data[line_end + 2 : line_end + 2 + size]
        pos = line_end + 2 + size + 2


def _content_length(response: Response) -> int:
    value = next((v for k, v in response.headers if k.lower() == "content-length"), "0")
    return int(value)
