"""A rehearsal's simulated nodes have their own working folders, as Azure ML's nodes have their
own code snapshots (issue 38): data that only global rank 0 writes into its folder is missing on
node 1 here as on the cluster, and the same script fixed as the check says (each node's local
rank 0) completes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.backends.conftest import local_plan, require
from tui.backends.base import JobState
from tui.backends.local import LocalBackend
from tui.core.spec import JobSpec
from tui.planning.script_check import check_file

pytestmark = pytest.mark.slow

SCRIPT = """\
import os

import torch.distributed as dist


class Numbers:
    def __init__(self, root, download=False):
        path = os.path.join(root, "numbers.txt")
        if download:  # stands for a dataset's download into the working folder
            os.makedirs(root, exist_ok=True)
            with open(path, "w") as f:
                f.write("1 2 3\\n")
        with open(path) as f:
            self.items = f.read().split()


dist.init_process_group("gloo")
rank, local_rank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
if {who} == 0:
    Numbers("data", download=True)
dist.barrier()
print("rank", rank, "read", len(Numbers("data").items), "numbers", flush=True)
dist.barrier()
dist.destroy_process_group()
"""


def rehearse(backend: LocalBackend, folder: Path, who: str):
    folder.mkdir()
    (folder / "fetch.py").write_text(SCRIPT.format(who=who), encoding="utf-8")
    spec = JobSpec(code=str(folder), script="fetch.py", nodes=2, gpus_per_node=2, sku=None)
    findings = {f.rule for f in check_file(folder / "fetch.py", spec, False, folder).findings}
    job = backend.submit(local_plan(spec))
    return findings, backend.wait(job, timeout=120), Path(job.location)


def test_data_only_global_rank_0_downloads_fails_on_the_second_node(
    backend: LocalBackend, tmp_path: Path
):
    require("torch")
    findings, status, job_dir = rehearse(backend, tmp_path / "rank0", "rank")
    assert "node_local_file_from_rank0" in findings
    assert status.state is JobState.FAILED
    assert status.failed_rank in (2, 3)  # node 1's ranks: node 0 has the file
    failed = (job_dir / f"user_logs/std_log_process_{status.failed_rank}.txt").read_text()
    assert "No such file or directory" in failed and "numbers.txt" in failed
    assert (job_dir / "code" / "data" / "numbers.txt").is_file()
    assert not (job_dir / "nodes" / "1" / "code" / "data").exists()

    findings, status, job_dir = rehearse(backend, tmp_path / "fixed", "local_rank")
    assert "node_local_file_from_rank0" not in findings
    assert status.state is JobState.COMPLETED, status.message
    assert (job_dir / "nodes" / "1" / "code" / "data" / "numbers.txt").is_file()
