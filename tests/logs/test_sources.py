"""Log sources: a local file, and HTTP Range reads (real Azurite; scripted responses only for
what Azurite never sends)."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.logs.azurite import AppendBlob, Azurite
from tests.logs.fault_proxy import FaultProxy
from tui.logs.sources import (
    FileSource,
    HttpRangeSource,
    LogSource,
    SourceError,
    TransientError,
    parse_retry_after,
    redact_url,
)

SAS = "https://acct.blob.core.windows.net/azureml/ExperimentRun/dcid.run/user_logs/std_log.txt"
SECRET = "sig=S3cr3tS1gnatur3%3D"


def urls() -> Callable[[], object]:
    """A URL provider that hands out a new SAS URL on every call and counts the calls."""
    calls: list[str] = []

    async def provider() -> str:
        calls.append(f"{SAS}?sv=2019-07-07&se=2030-01-01&{SECRET}{len(calls)}")
        return calls[-1]

    provider.calls = calls  # type: ignore[attr-defined]
    return provider


def source_with(handler: Callable[[httpx.Request], httpx.Response]) -> HttpRangeSource:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return HttpRangeSource(urls(), client, name="std_log.txt")


LOG = b"0123456789abcdef"


def test_file_and_http_sources_satisfy_the_protocol(tmp_path: Path) -> None:
    assert isinstance(FileSource(tmp_path / "log.txt"), LogSource)
    assert isinstance(HttpRangeSource(urls(), name="std_log.txt"), LogSource)


async def test_file_source_reads_from_an_offset_as_the_file_grows(tmp_path: Path) -> None:
    path = tmp_path / "std_log_process_0.txt"
    source = FileSource(path)
    assert await source.read(0) == b""
    assert await source.size() is None
    path.write_bytes(b"hello\n")
    assert await source.read(0) == b"hello\n"
    with path.open("ab") as f:
        f.write(b"world\n")
    assert await source.read(6) == b"world\n"
    assert await source.read(6, limit=3) == b"wor"
    assert await source.read(12) == b""
    assert await source.size() == 12
    assert source.name == "std_log_process_0.txt"


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
async def test_throttling_and_server_errors_are_transient_with_retry_after(status: int) -> None:
    source = source_with(lambda request: httpx.Response(status, headers={"Retry-After": "7"}))
    with pytest.raises(TransientError) as caught:
        await source.read(0)
    assert caught.value.retry_after == 7.0
    assert str(status) in str(caught.value)


def test_retry_after_is_read_as_seconds_or_as_a_date() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    in_a_minute = email.utils.formatdate(time.time() + 60, usegmt=True)
    assert 55 <= parse_retry_after(in_a_minute) <= 61  # type: ignore[operator]


async def test_a_body_shorter_than_its_content_range_is_not_accepted() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(206, content=LOG[:5], headers={"content-range": "bytes 0-15/16"})

    with pytest.raises(TransientError, match="truncated"):
        await source_with(handler).read(0)


async def test_bytes_from_another_offset_are_not_accepted() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(206, content=LOG[8:], headers={"content-range": "bytes 8-15/16"})

    with pytest.raises(TransientError, match="from 4"):
        await source_with(handler).read(4)


async def test_bytes_from_an_earlier_offset_are_trimmed() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(206, content=LOG[2:], headers={"content-range": "bytes 2-15/16"})

    assert await source_with(handler).read(4) == LOG[4:]


@pytest.mark.parametrize(
    "error",
    [
        httpx.ReadError("connection reset by peer"),
        httpx.RemoteProtocolError("peer closed connection without sending complete body"),
        httpx.ReadTimeout("timed out"),
        httpx.ConnectError(f"cannot connect to {SAS}?{SECRET}"),
    ],
)
async def test_transport_failures_are_transient_and_redacted(error: Exception) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise error

    with pytest.raises(TransientError) as caught:
        await source_with(handler).read(0)
    assert type(error).__name__ in str(caught.value)
    assert "S3cr3t" not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


async def test_a_failing_url_provider_is_transient_and_redacted() -> None:
    async def provider() -> str:
        raise RuntimeError(f"run history said no for {SAS}?{SECRET}")

    source = HttpRangeSource(provider, httpx.AsyncClient(), name="x")
    with pytest.raises(TransientError, match="fresh URL") as caught:
        await source.read(0)
    assert "S3cr3t" not in str(caught.value)
    await source.aclose()


def test_redact_url_drops_the_query_string() -> None:
    assert redact_url(f"{SAS}?sv=1&{SECRET}") == f"{SAS}?<redacted>"
    assert redact_url(SAS) == SAS


# --- against real Azurite: what Azure Storage answers (Range, 416, 404, 403, HEAD) ------------
# The scripted responses above stay only for what Azurite never sends: throttling and server
# errors, bodies that disagree with their headers, transport failures (tests/logs/fault_proxy.py
# breaks real connections too, in test_follow_azurite.py).


def recording_client(seen: list[tuple[str, str | None, int]]) -> httpx.AsyncClient:
    """A client that notes each exchange: method, Range asked for, status answered."""

    async def note(response: httpx.Response) -> None:
        request = response.request
        seen.append((request.method, request.headers.get("range"), response.status_code))

    return httpx.AsyncClient(event_hooks={"response": [note]})


async def test_against_azurite_range_reads_ask_only_for_new_bytes(blob: AppendBlob) -> None:
    seen: list[tuple[str, str | None, int]] = []
    async with recording_client(seen) as client:
        source = HttpRangeSource(blob.url_provider, client, name="std_log_process_0.txt")
        assert await source.read(0) == b""  # an empty blob
        blob.append(LOG)
        assert await source.read(0) == LOG
        assert await source.read(10, limit=4) == b"abcd"
        # At the end Azure Storage answers 416, Azurite 206 with no bytes; past it, both 416.
        assert await source.read(16) == b""
        assert await source.read(100) == b""
        assert await source.size() == 16
        blob.append(b"more\n")
        assert await source.read(16) == b"more\n"
    assert seen == [
        ("GET", "bytes=0-", 206),
        ("GET", "bytes=0-", 206),
        ("GET", "bytes=10-13", 206),
        ("GET", "bytes=16-", 206),
        ("GET", "bytes=100-", 416),
        ("HEAD", None, 200),
        ("GET", "bytes=16-", 206),
    ]


async def test_against_azurite_a_server_that_ignores_range_is_sliced_locally(
    blob: AppendBlob,
) -> None:
    blob.append(LOG)
    async with FaultProxy(blob.azurite.port, lambda request: "ignore_range") as proxy:

        async def provider() -> str:
            return proxy.rewrite(blob.sas_url())

        async with HttpRangeSource(provider) as source:
            assert await source.read(10) == b"abcdef"
            assert await source.read(10, limit=2) == b"ab"
            assert await source.read(16) == b""
    assert proxy.ignored_ranges == 3  # each answered 200 with the whole blob


async def test_against_azurite_a_blob_not_created_yet_reads_as_nothing(azurite: Azurite) -> None:
    blob = azurite.append_blob()
    missing = blob.client.container_name, "user_logs/std_log_process_9.txt"
    client = azurite.service().get_blob_client(*missing)

    async def provider() -> str:
        return azurite.sas_url(client)

    async with HttpRangeSource(provider) as source:
        assert await source.read(0) == b""  # 404
        assert await source.size() is None
        client.create_append_blob()
        client.append_block(b"late\n")
        assert await source.read(0) == b"late\n"


async def test_against_azurite_a_refused_sas_is_replaced_once_and_kept(blob: AppendBlob) -> None:
    blob.append(LOG)
    given: list[str] = []

    async def provider() -> str:
        url = blob.sas_url()
        given.append(url.replace("sig=", "sig=AAAA") if not given else url)  # first: refused
        return given[-1]

    async with HttpRangeSource(provider) as source:
        assert await source.read(0, limit=4) == b"0123"
        assert (len(given), source.url_refreshes) == (2, 1)
        assert await source.read(4, limit=4) == b"4567"
        assert len(given) == 2  # the fresh URL is kept


async def test_against_azurite_a_sas_refused_twice_is_an_error_without_the_signature(
    blob: AppendBlob,
) -> None:
    blob.append(LOG)

    async def provider() -> str:
        return blob.sas_url().replace("sig=", "sig=AAAA")

    async with HttpRangeSource(provider) as source:
        with pytest.raises(SourceError) as caught:
            await source.read(0)
        assert not isinstance(caught.value, TransientError)
        assert "403" in str(caught.value)
        assert "sig=" not in str(caught.value) and "AAAA" not in str(caught.value)
        assert "AAAA" not in repr(source) and source.url_refreshes == 1
