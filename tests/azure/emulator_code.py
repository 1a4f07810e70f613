"""The emulator's code assets: each registered folder uploaded into Azurite where azure-ai-ml puts
a job's code, its code version pointing there, and the workspace blob store that holds it.

Shapes, and where they come from:
- the blob layout `LocalUpload/<content hash>/<folder name>/<file>` in the workspace blob store's
  container is azure-ai-ml 1.35.2's own (`_artifacts/_constants.py` `ARTIFACT_ORIGIN`,
  `_utils/_asset_utils.py` `get_upload_files_from_folder`: "LocalUpload/<guid>/upload_files/…");
- the code version (`codeUri` the folder's URL, `isAnonymous` true for a job's snapshot) follows
  Azure/azure-rest-api-specs `…/stable/2024-04-01/examples/Workspace/CodeVersion/get.json`
  (c156dc16f347511c702f815af35b3ae4cc9372e0), whose values are placeholders;
- the datastore body is the recorded `GET …/datastores/workspaceblobstore` answer in
  Azure/azure-sdk-assets `python/sdk/ml/azure-ai-ml/tests/recordings/command_job/e2etests/
  test_command_job.pyTestCommandJobtest_command_job_dependency_label_resolution.json`
  (0f205ad0ccc3172a5f53d86f21c9f2a79da41099): `isDefault` true, `AccountKey` credentials,
  container `azureml-blobstore-<uuid>`, `serviceDataAccessAuthIdentity`; account and endpoint
  point at Azurite.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from tests.logs.azurite import DEV_ACCOUNT

if TYPE_CHECKING:
    from tests.azure.emulator import WorkspaceEmulator

BLOBSTORE = "workspaceblobstore"
BLOB_CONTAINER = "azureml-blobstore-8e7dad76-df37-472b-b882-0c1c58adfcf9"
"""The recorded blob store's container name."""
PROVIDER = "Microsoft.MachineLearningServices"


def code_prefix(digest: str, folder: Path) -> str:
    """Where azure-ai-ml uploads `folder` (content hash `digest`) in the blob store."""
    return f"LocalUpload/{digest}/{folder.name}"


def upload_code(em: WorkspaceEmulator, digest: str, folder: Path) -> None:
    """Put every file of `folder` into Azurite under its code prefix (as the SDK's upload)."""
    service = em.azurite.service()
    container = service.get_container_client(BLOB_CONTAINER)
    if not container.exists():
        container.create_container()
    prefix = code_prefix(digest, folder)
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            name = f"{prefix}/{path.relative_to(folder).as_posix()}"
            container.upload_blob(name, path.read_bytes(), overwrite=True)


def delete_code(em: WorkspaceEmulator, folder: Path) -> None:
    """Remove `folder`'s uploaded files (a snapshot whose blobs are gone)."""
    container = em.azurite.service().get_container_client(BLOB_CONTAINER)
    for digest, known in em.code_dirs.items():
        if known == folder:
            for blob in container.list_blobs(name_starts_with=code_prefix(digest, folder) + "/"):
                container.delete_blob(blob.name)


def code_version(em: WorkspaceEmulator, name: str) -> dict[str, Any]:
    """The code version `name`/1: its `codeUri` is the uploaded folder when the emulator knows
    which folder the name stands for."""
    digest = em.code_names.get(name)
    folder = em.code_dirs.get(digest) if digest else None
    where = code_prefix(digest, folder) if digest and folder else f"LocalUpload/{name}/code"
    return {
        "id": f"{em.ws_id}/codes/{name}/versions/1",
        "name": "1",
        "type": f"{PROVIDER}/workspaces/codes/versions",
        "properties": {
            "description": None,
            "tags": {},
            "properties": {},
            "isAnonymous": True,
            "codeUri": f"https://{DEV_ACCOUNT}.blob.core.windows.net/{BLOB_CONTAINER}/{where}",
        },
    }


def blobstore(em: WorkspaceEmulator) -> dict[str, Any]:
    """The workspace blob store's GET body (the recorded one, pointed at Azurite)."""
    port = urlsplit(em.azurite.endpoint).port
    identity_only = em.datastore_secrets == "None"
    return {
        "id": f"{em.ws_id}/datastores/{BLOBSTORE}",
        "name": BLOBSTORE,
        "type": f"{PROVIDER}/workspaces/datastores",
        "properties": {
            "description": None,
            "tags": None,
            "properties": None,
            "isDefault": True,
            "credentials": {"credentialsType": "None" if identity_only else "AccountKey"},
            "subscriptionId": em.subscription,
            "resourceGroup": em.resource_group,
            "datastoreType": "AzureBlob",
            "accountName": DEV_ACCOUNT,
            "containerName": BLOB_CONTAINER,
            "endpoint": f"localhost:{port}",
            "protocol": "http",
            "serviceDataAccessAuthIdentity": "WorkspaceSystemAssignedIdentity",
        },
    }
