"""Azurite, the Azure Storage emulator, on loopback: started per test session and by the benchmark.

Installed by `bash tests/setup.sh` into `.tools/azurite` (npm). Blobs are made with
azure-storage-blob and Azurite's well-known development account; reads go through SAS URLs made
with `generate_blob_sas`, like the SAS URLs Azure ML hands out for run logs.
"""

from __future__ import annotations

import itertools
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
from azure.storage.blob import BlobClient, BlobSasPermissions, BlobServiceClient, generate_blob_sas

ROOT = Path(__file__).resolve().parents[2]
AZURITE_BIN = ROOT / ".tools" / "azurite" / "node_modules" / ".bin" / "azurite-blob"
MISSING = f"Azurite is not installed ({AZURITE_BIN} is missing): run `bash tests/setup.sh`."

# Azurite's documented development account: public, the same on every machine, not a secret.
DEV_ACCOUNT = "devstoreaccount1"
DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Azurite:
    """One `azurite-blob` process on 127.0.0.1 with its data under `location`."""

    def __init__(self, location: Path) -> None:
        self.location = location
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._sas_serial = itertools.count()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}/{DEV_ACCOUNT}"

    @property
    def connection_string(self) -> str:
        return (
            f"DefaultEndpointsProtocol=http;AccountName={DEV_ACCOUNT};AccountKey={DEV_KEY};"
            f"BlobEndpoint={self.endpoint};"
        )

    def start(self, timeout: float = 30.0) -> None:
        if not AZURITE_BIN.exists():
            raise FileNotFoundError(MISSING)
        self.location.mkdir(parents=True, exist_ok=True)
        for _attempt in range(3):  # a free port can be taken between asking and binding
            self.port = free_port()
            log = (self.location / "azurite.log").open("ab")
            self._process = subprocess.Popen(
                [
                    str(AZURITE_BIN),
                    "--blobHost",
                    "127.0.0.1",
                    "--blobPort",
                    str(self.port),
                    "--location",
                    str(self.location),
                    "--silent",
                    "--skipApiVersionCheck",
                    "--loose",
                    "--disableTelemetry",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
            log.close()
            if self._wait_until_answering(timeout):
                return
            self.stop()
        tail = (self.location / "azurite.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"Azurite did not start on 127.0.0.1:\n{tail}")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def __enter__(self) -> Azurite:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _wait_until_answering(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                return False
            try:
                httpx.get(f"{self.endpoint}?comp=list", timeout=1.0)
                return True  # any HTTP answer (403 without auth) means it is up
            except httpx.TransportError:
                time.sleep(0.1)
        return False

    def service(self) -> BlobServiceClient:
        return BlobServiceClient.from_connection_string(self.connection_string)

    def append_blob(self, name: str = "user_logs/std_log_process_0.txt") -> AppendBlob:
        """A new, empty append blob in a new container."""
        container = self.service().create_container(f"t{uuid.uuid4().hex}")
        client = container.get_blob_client(name)
        client.create_append_blob()
        return AppendBlob(self, client)

    def sas_url(self, client: BlobClient) -> str:
        """A read SAS URL for the blob; each call gives a different signature."""
        now = datetime.now(timezone.utc).replace(microsecond=0)
        sas = generate_blob_sas(
            DEV_ACCOUNT,
            client.container_name,
            client.blob_name,
            account_key=DEV_KEY,
            permission=BlobSasPermissions(read=True),
            start=now - timedelta(minutes=5),
            expiry=now + timedelta(hours=1, seconds=next(self._sas_serial)),
        )
        return f"{self.endpoint}/{client.container_name}/{client.blob_name}?{sas}"


@dataclass
class AppendBlob:
    """An append blob the test writes to, with a way to mint fresh read SAS URLs for it."""

    azurite: Azurite
    client: BlobClient

    def append(self, data: bytes) -> None:
        self.client.append_block(data, length=len(data))

    def content(self) -> bytes:
        return self.client.download_blob().readall()

    def sas_url(self) -> str:
        return self.azurite.sas_url(self.client)

    async def url_provider(self) -> str:
        return self.sas_url()
