"""An Azure ML job as it was submitted: its definition (the service's own job body) and its code
snapshot (the code asset's files, read back from the workspace blob store), for
`dtrain-tui reproduce`.

azure-ai-ml uploads a job's code folder to the workspace blob store under
`LocalUpload/<content hash>/<folder name>/` and registers a code version whose `codeUri` is that
folder's URL; the job's `codeId` names the version. Reading it back needs the blob store's key, a
SAS token from `listSecrets`, or (an identity-only store) the signed-in identity's own access to
the storage account. Every method blocks on the network.

azure-ai-ml 1.35 has no public call for either read: `jobs._get_job` (the body `jobs.get` parses)
and `MLClient._code` (code versions) are used, as the backend already uses `_runs_operations`.
Its own `code.download` is not: it builds the storage URL from the cloud's endpoint rather than
the datastore's, and empties the destination folder first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.backends.azureml.errors import azure_errors, one_line
from tui.backends.base import BackendError

if TYPE_CHECKING:
    from tui.backends.azureml.backend import AzureMLBackend

BLOB_STORE = "workspaceblobstore"
"""The datastore azure-ai-ml always uploads code to (`_get_datastore_name()`)."""
_CODE_ID = re.compile(r"/codes/(?P<name>[^/]+)/versions/(?P<version>[^/]+)$")
_BLOB_URL = re.compile(
    r"^https://(?P<account>[^./]+)\.blob\.[^/]+/(?P<container>[^/]+)/(?P<prefix>.+?)/?$"
)
MAX_SNAPSHOT_BYTES = 200 << 20
"""A code snapshot larger than this is not copied (a code folder that holds data sets)."""


class SnapshotUnreadable(BackendError):
    """The job's code snapshot cannot be read here; the message says why, in one line."""


def job_body(backend: AzureMLBackend, name: str) -> dict[str, Any]:
    """The job's body as the service answers `GET …/jobs/{name}` (`properties.command`,
    `codeId`, `distribution`, `inputs` …), whatever kind of job it is; JobNotFound if none."""
    with azure_errors(backend.workspace, f"reading job {name}", job=name):
        # jobs.get() makes a pipeline-node wrapper of the job; the service's own body is what
        # the job was: the same fields the PUT sent.
        rest = backend.ml_client.jobs._get_job(name)
        return rest.as_dict()


def download_snapshot(backend: AzureMLBackend, code_id: str, dest: Path) -> str:
    """Copy the files of code asset `code_id` into `dest` (created); returns where they came
    from (`azureml:<name>:<version>`). Raises SnapshotUnreadable saying why in one line."""
    m = _CODE_ID.search(code_id)
    if m is None:
        raise SnapshotUnreadable(f"its code id {code_id!r} names no code asset version")
    asset = f"azureml:{m['name']}:{m['version']}"
    ws, ml = backend.workspace, backend.ml_client
    try:
        with azure_errors(ws, f"reading code asset {asset}"):
            uri = str(ml._code.get(m["name"], m["version"]).path or "")
        where = _BLOB_URL.match(uri)
        if where is None:
            raise SnapshotUnreadable(
                f"code asset {asset} is at {uri or 'no address'}, not in blob storage"
            )
        with azure_errors(ws, f"reading datastore {BLOB_STORE}"):
            store = ml.datastores.get(BLOB_STORE, include_secrets=True)
        if store.container_name != where["container"]:
            raise SnapshotUnreadable(
                f"code asset {asset} is in container {where['container']}, not in the "
                f"workspace blob store ({store.container_name})"
            )
        with azure_errors(ws, f"reading code asset {asset} from its storage"):
            count = _copy(_container(backend, store), where["prefix"], dest)
    except SnapshotUnreadable:
        raise
    except BackendError as err:
        raise SnapshotUnreadable(one_line(str(err))) from None
    if not count:
        raise SnapshotUnreadable(f"code asset {asset} holds no files at {uri}")
    return asset


def _container(backend: AzureMLBackend, store: Any) -> Any:
    """A blob container client for the store: its key or SAS token, else the signed-in
    identity (an identity-only store; storage then checks the identity's own role)."""
    from azure.storage.blob import ContainerClient

    credentials = getattr(store, "credentials", None)
    key = getattr(credentials, "account_key", None)
    sas_token = getattr(credentials, "sas_token", None)
    credential: Any
    if key:
        credential = {"account_name": store.account_name, "account_key": key}
    else:
        credential = sas_token or backend._credential  # the signed-in identity (same package)
    account_url = f"{store.protocol}://{store.account_name}.blob.{store.endpoint}"
    return ContainerClient(account_url, store.container_name, credential=credential, retry_total=1)


def _copy(container: Any, prefix: str, dest: Path) -> int:
    """Download every blob under `prefix/` into `dest`, keeping their relative paths; the
    number of files. A name that would leave `dest` is refused."""
    with container:
        blobs = list(container.list_blobs(name_starts_with=prefix.rstrip("/") + "/"))
        total = sum(b.size or 0 for b in blobs)
        if total > MAX_SNAPSHOT_BYTES:
            raise SnapshotUnreadable(
                f"the snapshot is {total >> 20} MiB, more than the {MAX_SNAPSHOT_BYTES >> 20} MiB "
                "copied here"
            )
        dest.mkdir(parents=True, exist_ok=True)
        root = dest.resolve()
        for blob in blobs:
            relative = blob.name[len(prefix.rstrip("/")) + 1 :]
            target = (dest / relative).resolve()
            if not relative or root not in target.parents:
                raise SnapshotUnreadable(
                    f"the snapshot holds a file outside its folder: {blob.name}"
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(container.download_blob(blob.name).readall())
        return len(blobs)
