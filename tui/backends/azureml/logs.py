"""A run's logs as `HttpRangeSource`s over the SAS URLs Azure ML hands out, refreshed on expiry.

Run History's run details list every log of a job (`logFiles`: name → SAS URL): each rank's
`user_logs/std_log_process_N.txt`, per-task logs (`std_log_node_<nn>_<role>.txt`),
`system_logs/…`. One `RunLogs` per job holds the latest listing; when a URL expires (403) its
source asks for a fresh one, and sources that expire together share one Run History call. This
works where `jobs.stream()` fails (identity-only datastores), and reads only new bytes (`Range`).

While a job runs, Run History can list no user logs yet; then the job's folder in the artifact
datastore (`outputs.default`, `ExperimentRun/dcid.<name>/`) is listed and read-only SAS URLs are
made with the datastore's account key, the way `jobs.stream()` does.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from tui.logs.names import ordered, rank_logs
from tui.logs.sources import DEFAULT_TIMEOUT, HttpRangeSource

SHARE_LISTING_FOR = 1.0
"""Seconds a fresh listing serves every source that asks; one Run History call per expiry."""
LOG_FOLDERS = ("user_logs/", "system_logs/", "azureml-logs/", "logs/")

FALLBACK_SAS_MINUTES = 30
"""Lifetime of the SAS URLs made from a datastore key (what `jobs.stream()` uses)."""
POLL_RETRIES = 1
"""Retries of one listing of a job's log folder before its poll reports it (the next poll is
its retry)."""


class RunLogs:
    """The latest `{log name: URL}` of one run, shared by its sources.

    `fetch` returns a fresh listing (it calls Run History, and may block); it runs in a thread.
    """

    def __init__(self, fetch: Callable[[], dict[str, str]]) -> None:
        self._fetch = fetch
        self._lock = threading.Lock()
        self._files: dict[str, str] = {}
        self._fetched_at = -math.inf

    def files(self, max_age: float = 0.0) -> dict[str, str]:
        """The listing, fetched again unless the last one is at most `max_age` s old."""
        with self._lock:
            if time.monotonic() - self._fetched_at > max_age:
                self._files = self._fetch()
                self._fetched_at = time.monotonic()
            return dict(self._files)

    def seed(self, files: dict[str, str]) -> None:
        """A listing fetched elsewhere (the status read the same run details): keep it."""
        with self._lock:
            self._files = dict(files)
            self._fetched_at = time.monotonic()

    async def url(self, name: str) -> str:
        """A URL for `name` that works now (HttpRangeSource's url_provider)."""
        files = await asyncio.to_thread(self.files, SHARE_LISTING_FOR)
        if name not in files:
            raise LookupError(f"Azure ML no longer lists {name}")
        return files[name]

    def sources(self, files: dict[str, str]) -> dict[str, LazyRangeSource]:
        """A source per log, rank logs first in rank order."""
        return {
            name: LazyRangeSource(name, files[name], lambda n=name: self.url(n))
            for name in ordered(files)
        }


class LazyRangeSource:
    """An `HttpRangeSource` made on first read: a 1,024-rank job's logs cost nothing unread."""

    def __init__(self, name: str, url: str, url_provider: Callable[[], Any]) -> None:
        self.name = name
        self._url = url
        self._url_provider = url_provider
        self._source: HttpRangeSource | None = None

    @property
    def source(self) -> HttpRangeSource:
        if self._source is None:
            client = httpx.AsyncClient(timeout=DEFAULT_TIMEOUT, verify=_ssl_context())
            self._source = _OwningRangeSource(
                self._url_provider, client, name=self.name, url=self._url
            )
        return self._source

    @property
    def url_refreshes(self) -> int:
        return self._source.url_refreshes if self._source else 0

    async def read(self, offset: int, limit: int | None = None) -> bytes:
        return await self.source.read(offset, limit)

    async def size(self) -> int | None:
        return await self.source.size()

    async def aclose(self) -> None:
        if self._source is not None:
            await self._source.aclose()

    def __repr__(self) -> str:
        return f"LazyRangeSource({self.name!r})"


class _OwningRangeSource(HttpRangeSource):
    """An HttpRangeSource that closes the client made for it (with a shared SSL context)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._own_client = True


_SSL: dict[tuple[str, str], Any] = {}


def _ssl_context() -> Any:
    """One SSL context for every log client (making one per client costs ~80 ms); like httpx's
    default it honours SSL_CERT_FILE / SSL_CERT_DIR."""
    import os

    key = (os.environ.get("SSL_CERT_FILE", ""), os.environ.get("SSL_CERT_DIR", ""))
    if key not in _SSL:
        _SSL[key] = httpx.create_ssl_context()
    return _SSL[key]


# ---------------------------------------------------------------------------------------------
# The fallback: list the job's folder in the artifact datastore


def datastore_folder(job: Any) -> tuple[str, str] | None:
    """(datastore name, folder) of the job's default output, or None when it has none."""
    outputs = getattr(job, "outputs", None) or {}
    default = outputs.get("default") if isinstance(outputs, dict) else None
    path = getattr(default, "path", None) or (
        default.get("path") if isinstance(default, dict) else None
    )
    prefix = "azureml://datastores/"
    if not isinstance(path, str) or not path.startswith(prefix):
        return None
    store, _, folder = path[len(prefix) :].partition("/paths/")
    if not folder:
        store, _, folder = path[len(prefix) :].partition("/")
    return (store, folder.strip("/")) if store and folder else None


def list_datastore_logs(ml_client: Any, job: Any) -> dict[str, str]:
    """`{log name: SAS URL}` for the log files under the job's default output folder.

    Needs a datastore with an account key or a SAS token (an identity-only datastore cannot sign
    URLs this way; Run History's listing is the only source there).
    """
    folder = open_log_folder(ml_client, job)
    if folder is None:
        return {}
    with folder:
        return folder.urls()


def open_log_folder(ml_client: Any, job: Any) -> LogFolder | None:
    """The job's folder in its artifact datastore, ready to list; None when the job has no
    default output or its datastore holds neither an account key nor a SAS token."""
    found = datastore_folder(job)
    if found is None:
        return None
    store_name, folder = found
    from azure.storage.blob import ContainerClient

    store = ml_client.datastores.get(store_name, include_secrets=True)
    credentials = getattr(store, "credentials", None)
    key = getattr(credentials, "account_key", None)
    sas_token = getattr(credentials, "sas_token", None)
    if not key and not sas_token:
        return None
    account_url = f"{store.protocol}://{store.account_name}.blob.{store.endpoint}"
    credential: Any = {"account_name": store.account_name, "account_key": key} if key else sas_token
    # A poll is its own retry: a listing that fails gives up within seconds (the storage
    # client's default backs off 15 s, 18 s, 24 s... and an app quitting waits for it).
    container = ContainerClient(
        account_url,
        store.container_name,
        credential=credential,
        retry_total=POLL_RETRIES,
        initial_backoff=1,
        increment_base=1,
        random_jitter_range=1,
        connection_timeout=10,
        read_timeout=30,
    )
    return LogFolder(container, folder, account_key=key, sas_token=sas_token, url=account_url)


class LogFolder:
    """A job's folder in the artifact datastore: its logs' sizes in one List Blobs call (one per
    5,000 logs), and read-only SAS URLs for them.

    `sizes()` lists the whole folder only until rank logs show up; from then on only the folder
    that holds them (`user_logs/`, or `azureml-logs/` on the older runtime), so what the job
    writes to `outputs/` never adds to a poll.
    """

    def __init__(
        self,
        container: Any,
        folder: str,
        *,
        account_key: str | None = None,
        sas_token: str | None = None,
        url: str = "",
    ) -> None:
        self.container = container
        """An azure-storage-blob `ContainerClient` (blocking)."""
        self.folder = folder.strip("/")
        self.logs_under = ""
        """The log folder (`user_logs/`) the rank logs were found in; "" until then."""
        self._key = account_key
        self._sas = sas_token
        self._base = f"{url}/{container.container_name}"
        """Where the SAS URLs point: the account's URL as the datastore names it, the container."""

    def sizes(self) -> dict[str, int]:
        """`{log name: bytes}` for every log under the folder."""
        sizes = {name: blob.size for name, blob in self._logs()}
        if not self.logs_under:
            tops = {r.name.split("/", 1)[0] for r in rank_logs(sizes)}
            if len(tops) == 1:
                self.logs_under = f"{tops.pop()}/"
        return sizes

    def urls(self) -> dict[str, str]:
        """`{log name: SAS URL}` (made with the datastore's key, or its SAS token)."""
        from datetime import datetime, timedelta, timezone
        from urllib.parse import quote

        from azure.storage.blob import BlobSasPermissions, generate_blob_sas

        container = self.container
        expiry = datetime.now(timezone.utc) + timedelta(minutes=FALLBACK_SAS_MINUTES)
        files: dict[str, str] = {}
        for name, blob in self._logs():
            if self._key:
                sas = generate_blob_sas(
                    container.account_name,
                    container.container_name,
                    blob.name,
                    account_key=self._key,
                    permission=BlobSasPermissions(read=True),
                    expiry=expiry,
                )
            else:
                sas = (self._sas or "").lstrip("?")
            files[name] = f"{self._base}/{quote(blob.name)}?{sas}"
        return files

    def _logs(self) -> Iterator[tuple[str, Any]]:
        prefix = f"{self.folder}/"
        for blob in self.container.list_blobs(name_starts_with=prefix + self.logs_under):
            name = blob.name[len(prefix) :]
            if name.startswith(LOG_FOLDERS):
                yield name, blob

    def close(self) -> None:
        self.container.close()

    def __enter__(self) -> LogFolder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
