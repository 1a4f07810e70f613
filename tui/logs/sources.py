"""Where log bytes come from: anything that can return the bytes of a growing file from an offset.

Two sources: `FileSource` (a file on this machine, the local backend's rank logs) and
`HttpRangeSource` (a URL, Azure ML's SAS blob URLs), which asks only for bytes it has not seen
(`Range: bytes=N-M`) instead of downloading the whole file on every poll as `jobs.stream()` does.

A read either returns the bytes that start exactly at the offset asked for, or raises: it never
returns bytes from anywhere else. That is what lets `LogFollower` count offsets and deliver every
byte exactly once, whatever fails in between.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit

import httpx

DEFAULT_READ_LIMIT = 8 << 20
"""The most bytes one read returns: a 1 GB backlog arrives in steps, not in one response."""

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)

TRANSIENT_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
"""Statuses that say "try again later" (the ones azure-ai-ml's log download retries, and 408)."""

_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")
_TOTAL = re.compile(r"/(\d+)\s*\Z")
_SECRET_PARAM = re.compile(
    r"(?i)\b(sig|signature|se|st|skoid|sktid|skt|ske|sks|skv|code|key)=[^&\s\"']*"
)


class SourceError(Exception):
    """A read failed; nothing was consumed, so the same offset can be read again."""


class TransientError(SourceError):
    """A read failed in a way that is expected to pass: a dropped connection, a timeout, a 5xx.

    `retry_after` is the server's `Retry-After` in seconds when it sent one.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@runtime_checkable
class LogSource(Protocol):
    """A growing log.

    `read(offset, limit)` returns up to `limit` bytes (None: the source's own bound) that start
    exactly at `offset`, or b"" when there is nothing new (including "the log does not exist
    yet"). It raises `SourceError` (often `TransientError`) rather than return anything else.
    """

    name: str

    async def read(self, offset: int, limit: int | None = None) -> bytes: ...

    async def size(self) -> int | None:
        """The current size in bytes, or None when the source cannot tell."""
        ...


def redact_url(url: str | httpx.URL) -> str:
    """`url` without its query string, which for a SAS URL holds the signature."""
    parts = urlsplit(str(url))
    query = "<redacted>" if parts.query else ""
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def redact_text(text: str) -> str:
    """`text` with any SAS-looking `sig=...` (and friends) values blanked out."""
    return _SECRET_PARAM.sub(lambda m: f"{m.group(1)}=<redacted>", text)


class FileSource:
    """A log file on this machine (the local backend's rank logs), followed as `tail -f` does:
    by the file, not the name. It is opened at the first read that finds it and read through
    that descriptor from then on, because a job writes to the file it opened: a rank log that
    is deleted or has another file renamed over it still grows, out of the path's reach.
    `moved` then says so. `version` changes with every read, so the follower checks the bytes
    before its offset each time (a log truncated and rewritten past the offset between two reads
    is read again from its start, never from the middle of a line)."""

    def __init__(self, path: Path | str, name: str | None = None) -> None:
        self.path = Path(path)
        self.name = name or self.path.name
        self.total: int | None = None
        """The file's size at the last read (a smaller one than before: it was rewritten)."""
        self.version: str | None = None
        """New at every read: a file can be truncated and rewritten within one tick of its
        modification time, so every read may follow a rewrite (the check is a 256-byte read)."""
        self._reads = 0
        self.moved: str | None = None
        """Set once the path no longer names the file being followed: what happened to it."""
        self.path_change: Literal["deleted", "replaced"] | None = None
        """The same, in a word: the path was deleted, or another file was renamed over it."""
        self._fd: int | None = None
        self._ident: tuple[int, int] | None = None

    def _file(self) -> int | None:
        """The descriptor of the file followed, opened at the first call that finds it."""
        if self._fd is None:
            try:
                fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            except FileNotFoundError:
                return None
            st = os.fstat(fd)
            self._fd, self._ident = fd, (st.st_dev, st.st_ino)
        return self._fd

    def _check_path(self) -> None:
        if self.moved is not None or self._ident is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self.path_change, what = "deleted", "was deleted"
        except OSError:
            return
        else:
            if (st.st_dev, st.st_ino) == self._ident:
                return
            self.path_change, what = "replaced", "now names another file"
        self.moved = f"{self.name}: the path {what}; following the file the job writes, as before"

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        """Up to `limit` bytes from `offset`; b"" when the file does not exist yet."""
        fd = self._file()
        if fd is None:
            return b""
        self.total = os.fstat(fd).st_size
        self._reads += 1
        self.version = str(self._reads)
        self._check_path()
        return os.pread(fd, DEFAULT_READ_LIMIT if limit is None else limit, offset)

    async def size(self) -> int | None:
        try:  # the file followed, else (not followed yet) the path: nothing kept open
            return os.fstat(self._fd).st_size if self._fd is not None else self.path.stat().st_size
        except FileNotFoundError:
            return None

    async def tail(self, nbytes: int) -> tuple[int, bytes]:
        """The last `nbytes` (fewer in a smaller file) and the offset they start at; of the
        file followed, else of the path's (opened for this read only: a doctor reading 1,024
        ranks' tails holds no descriptor afterwards)."""
        try:
            fd = self._fd if self._fd is not None else os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return 0, b""
        try:
            size = os.fstat(fd).st_size
            start = max(0, size - nbytes)
            return start, os.pread(fd, size - start, start)
        finally:
            if fd != self._fd:
                os.close(fd)

    async def aclose(self) -> None:
        """Close the file (a later read opens it again by its path)."""
        self.close()

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit `os` may be gone
            self.close()

    def __repr__(self) -> str:
        return f"FileSource({str(self.path)!r})"


class HttpRangeSource:
    """A log behind a URL that may expire (an Azure blob SAS URL), read with HTTP Range requests.

    `url_provider` is an async callable returning a URL that works now; it is asked once at the
    first read (unless `url` is given) and again whenever the server answers 403, as it does when
    a SAS has expired. `client` is an `httpx.AsyncClient` to share; without one the source makes
    its own and `aclose()` closes it.

    Status handling: 206 → the bytes (checked against `Content-Range`); 416 → nothing new; 200 →
    the server ignored Range, so the body is sliced here; 404 → nothing yet; 403 → one fresh URL
    and one retry; 408/429/5xx, dropped connections, timeouts and bodies shorter than their
    headers say → `TransientError` (with `Retry-After` when sent). No message carries the URL's
    query string.
    """

    def __init__(
        self,
        url_provider: Callable[[], Awaitable[str]],
        client: httpx.AsyncClient | None = None,
        *,
        name: str | None = None,
        url: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._url_provider = url_provider
        self._url = url
        self._own_client = client is None
        self._client = client or httpx.AsyncClient(timeout=timeout)
        self.name = name or (urlsplit(url).path.rsplit("/", 1)[-1] if url else "log")
        self.url_refreshes = 0
        """How many times the URL provider was asked for a fresh URL after a 403."""
        self.total: int | None = None
        """The blob's whole size as the last read's `Content-Range` (or length) said."""
        self._suffix_ranges = True  # until the server shows it cannot serve `bytes=-N`
        self.version: str | None = None
        """Changes when the blob may have been replaced rather than appended to: the ETag of a
        block blob; for an append blob (which can only grow) its creation time."""

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        """Bytes from `offset`: `Range: bytes=N-`, or `bytes=N-M` when `limit` bounds the read.

        `LogFollower` always passes a limit, so a 1 GB backlog arrives in steps and memory stays
        flat (a bounded range is also valid in every storage service version).
        """
        last = "" if limit is None else str(offset + limit - 1)
        headers = {
            "Range": f"bytes={offset}-{last}",
            # Offsets count stored bytes; a transparently decoded body would not match them.
            "Accept-Encoding": "identity",
        }
        response = await self._request("GET", headers)
        status = response.status_code
        self._note_version(response)
        if status in (404, 416):
            return b""
        if status == 206:
            return self._partial_body(response, offset)
        if status == 200:
            body = response.content
            self._check_length(response, len(body))
            return body[offset:] if limit is None else body[offset : offset + limit]
        raise SourceError(f"{self.name}: HTTP {status} from {redact_url(response.url)}")

    def _note_version(self, response: httpx.Response) -> None:
        """Keep what says whether the blob was rewritten: its size and version (see above)."""
        headers = response.headers
        total = _TOTAL.search(headers.get("content-range", ""))
        if total is not None:
            self.total = int(total.group(1))
        elif response.status_code == 200 and headers.get("content-length", "").isdigit():
            self.total = int(headers["content-length"])
        elif response.status_code == 404:
            self.total = None
        if headers.get("x-ms-blob-type", "").lower() == "appendblob":
            self.version = headers.get("x-ms-creation-time") or self.version
        else:
            self.version = headers.get("etag") or self.version

    async def tail(self, nbytes: int) -> tuple[int, bytes]:
        """The last `nbytes` and the offset they start at, in one suffix request
        (`Range: bytes=-N`): no size has to be asked for first. A server that cannot serve a
        suffix (Azurite answers 500) is asked its size (HEAD) and a range from there instead."""
        if not self._suffix_ranges:
            return await self._tail_by_size(nbytes)
        headers = {"Range": f"bytes=-{nbytes}", "Accept-Encoding": "identity"}
        try:
            response = await self._request("GET", headers)
        except TransientError:
            self._suffix_ranges = False
            return await self._tail_by_size(nbytes)
        if response.status_code in (400, 501):
            self._suffix_ranges = False
            return await self._tail_by_size(nbytes)
        self._note_version(response)
        status = response.status_code
        if status in (404, 416):
            return 0, b""  # not there yet, or empty (Azure answers an empty blob with 416)
        if status not in (200, 206):
            raise SourceError(f"{self.name}: HTTP {status} from {redact_url(response.url)}")
        body = response.content
        self._check_length(response, len(body))
        match = _CONTENT_RANGE.fullmatch(response.headers.get("content-range", "").strip())
        if status == 206 and match is not None:
            return int(match.group(1)), body
        start = max(0, len(body) - nbytes)  # the whole blob came back (200): keep its end
        return start, body[start:]

    async def _tail_by_size(self, nbytes: int) -> tuple[int, bytes]:
        size = await self.size()
        if not size:
            return 0, b""
        start = max(0, size - nbytes)
        return start, await self.read(start, size - start)

    async def size(self) -> int | None:
        response = await self._request("HEAD", {"Accept-Encoding": "identity"})
        if response.status_code == 200 and "content-length" in response.headers:
            return int(response.headers["content-length"])
        return None

    async def aclose(self) -> None:
        """Close the HTTP client if this source made it."""
        if self._own_client:
            await self._client.aclose()

    async def __aenter__(self) -> HttpRangeSource:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        shown = redact_url(self._url) if self._url else "<url not fetched yet>"
        return f"HttpRangeSource({self.name!r}, {shown!r})"

    async def _request(self, method: str, headers: dict[str, str]) -> httpx.Response:
        if self._url is None:
            self._url = await self._fresh_url()
        response = await self._send(method, self._url, headers)
        if response.status_code == 403:
            # An expired SAS answers 403 (AuthenticationFailed): one fresh URL, one retry.
            self._url = await self._fresh_url()
            self.url_refreshes += 1
            response = await self._send(method, self._url, headers)
            if response.status_code == 403:
                raise SourceError(
                    f"{self.name}: HTTP 403 from {redact_url(response.url)} with a fresh URL"
                )
        if response.status_code in TRANSIENT_STATUSES:
            raise TransientError(
                f"{self.name}: HTTP {response.status_code} {response.reason_phrase}",
                retry_after=parse_retry_after(response.headers.get("retry-after")),
            )
        return response

    async def _send(self, method: str, url: str, headers: dict[str, str]) -> httpx.Response:
        try:
            return await self._client.request(method, url, headers=headers)
        except httpx.TransportError as err:
            # Dropped connections, resets, timeouts, bodies cut short of their Content-Length.
            detail = redact_text(str(err)) or "no detail"
            raise TransientError(f"{self.name}: {type(err).__name__}: {detail}") from None

    async def _fresh_url(self) -> str:
        try:
            return await self._url_provider()
        except Exception as err:
            # The provider talks to a service too (Run History); its failure is worth a retry.
            detail = redact_text(str(err)) or "no detail"
            raise TransientError(
                f"{self.name}: could not get a fresh URL: {type(err).__name__}: {detail}"
            ) from None

    def _partial_body(self, response: httpx.Response, offset: int) -> bytes:
        body = response.content
        self._check_length(response, len(body))
        content_range = response.headers.get("content-range")
        if not body:
            # Azurite answers an offset at the end with 206 `bytes 12-11/12` (Azure: 416), and an
            # empty blob with `bytes 0--1/0`: nothing new either way.
            return b""
        if content_range is None:
            return body  # framing was checked; the body starts where we asked
        match = _CONTENT_RANGE.fullmatch(content_range.strip())
        if match is None:
            raise TransientError(f"{self.name}: unreadable Content-Range {content_range!r}")
        start, end = int(match.group(1)), int(match.group(2))
        if len(body) != end - start + 1:
            raise TransientError(
                f"{self.name}: truncated body: {len(body)} bytes for range {start}-{end}"
            )
        if start > offset:
            raise TransientError(f"{self.name}: asked for bytes from {offset}, got from {start}")
        return body[offset - start :]

    def _check_length(self, response: httpx.Response, received: int) -> None:
        declared = response.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) != received:
            raise TransientError(f"{self.name}: truncated body: {received} of {declared} bytes")


async def read_tail(source: LogSource, nbytes: int) -> tuple[int, bytes]:
    """The last `nbytes` of `source` and the offset they start at: one suffix read where the
    source has one (`tail()`), else its size and one ranged read."""
    tail = getattr(source, "tail", None)
    if tail is not None:
        return await tail(nbytes)
    size = await source.size()
    if not size:
        return 0, b""
    start = max(0, size - nbytes)
    return start, await source.read(start, size - start)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a `Retry-After` value (delta-seconds or an HTTP date); None if absent or odd."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
