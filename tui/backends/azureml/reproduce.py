"""An Azure ML job made ready to run again here, for `dtrain-tui reproduce` and the app's `R`:
its definition read from the workspace, its code snapshot copied into a new work folder, the
run here planned (`tui.planning.reproduce`), and the folders that stand in for its inputs.

Every step but the planning blocks on the network or the disk: the app runs them in a thread.
"""

from __future__ import annotations

import platform
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from tui.backends.azureml.snapshot import SnapshotUnreadable, download_snapshot, job_body

if TYPE_CHECKING:
    from tui.backends.azureml.backend import AzureMLBackend
    from tui.planning.reproduce import JobDefinition, Reproduction

STAND_IN = """This folder stands in for the input `{name}` of Azure ML job {job}.
On the cluster it was: {was}
`dtrain-tui reproduce` does not copy job inputs; put a small sample of the data here to use one.
"""
CODE_WAY_OUT = "pass --code FOLDER to run a local copy of its code"
"""The way out when the snapshot cannot be read (`reproduce NAME --code FOLDER`)."""


def read_definition(backend: AzureMLBackend, name: str) -> JobDefinition:
    """Job `name` as the workspace has it; BackendError (no such job, not signed in) or
    ImportProblem (not a command job), each one line."""
    from tui.planning.reproduce import definition_from_body

    return definition_from_body(job_body(backend, name))


def work_folder(name: str) -> Path:
    """A new folder for one reproduction of job `name`: code snapshot, stand-ins, outputs."""
    from tui.core.dirs import state_dir

    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    return state_dir() / "reproduce" / f"{name}-{stamp}"


def snapshot_code(
    backend: AzureMLBackend, definition: JobDefinition, folder: Path
) -> tuple[Path, str]:
    """The job's code copied into `folder/code` from its snapshot, and the line that says where
    it came from; a job with no snapshot gets an empty folder, as on the cluster. Raises
    SnapshotUnreadable saying, in one line, that and why the snapshot cannot be read."""
    code = folder / "code"
    if definition.code_id is None:
        code.mkdir(parents=True)
        return code, "code: none, as on the cluster (the job has no code snapshot)"
    try:
        asset = download_snapshot(backend, definition.code_id, code)
    except SnapshotUnreadable as err:
        raise SnapshotUnreadable(
            f"the code snapshot of job {definition.name} cannot be read: {err}"
        ) from None
    return code, f"code: the job's own snapshot ({asset}), copied to {code}"


def plan_here(
    definition: JobDefinition, code: Path, folder: Path, *, nodes: int, gpus: int, code_note: str
) -> Reproduction:
    """The job planned at `nodes` × `gpus` on this machine (its visible GPUs, this Python).
    Raises ImportProblem or ValidationError for a job field the plan refuses, ValueError when
    the local ports cannot be reserved."""
    from tui.backends.local.procs import visible_gpus
    from tui.core.plan_types import Target
    from tui.planning.reproduce import reproduce

    return reproduce(
        definition,
        code,
        folder,
        nodes=nodes,
        gpus=gpus,
        target=Target.local(nodes + 1),  # a port per task: workers and one ps
        gpus_here=len(visible_gpus()),
        python=f"Python {platform.python_version()}, {sys.executable}",
        code_note=code_note,
    )


def write_stand_ins(rep: Reproduction) -> None:
    """The folders the inputs and outputs point at here; an input's says what it replaces."""
    for r in rep.replaced:
        r.here.mkdir(parents=True, exist_ok=True)
        if r.kind == "input":
            text = STAND_IN.format(name=r.name, job=rep.definition.name, was=r.was)
            (r.here / "README.dtrain-tui.txt").write_text(text, encoding="utf-8")
