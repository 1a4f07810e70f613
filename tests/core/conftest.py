"""Shared specs for core tests: every framework × launch mode the rules allow."""

from __future__ import annotations

import pytest

from tui.core.spec import JobSpec, launch_mode_problem

FRAMEWORKS = ("pytorch", "lightning", "huggingface", "deepspeed", "tensorflow", "horovod")


def allowed_specs() -> list[tuple[str, JobSpec]]:
    """One spec per allowed framework × launch mode, plus the variants that change the plan."""
    out = []
    for fw in FRAMEWORKS:
        for launch in ("per_process", "per_node"):
            if launch_mode_problem(fw, launch):
                continue
            spec = JobSpec(
                framework=fw,
                launch=launch,
                nodes=2,
                gpus_per_node=4,
                env={"NCCL_DEBUG": "INFO"},
                args=("--epochs", "3"),
            )
            out.append((f"{fw}-{launch}", spec))
    base = JobSpec(
        framework="deepspeed", nodes=2, gpus_per_node=4, deepspeed_via="mpi", zero_stage=2
    )
    out.append(("deepspeed-mpi-per_process", base))
    out.append(("deepspeed-mpi-per_node", base.with_changes(launch="per_node")))
    out.append(
        (
            "huggingface-torchrun-per_node",
            JobSpec(framework="huggingface", launch="per_node", hf_launcher="torchrun"),
        )
    )
    out.append(
        (
            "tensorflow-ps",
            JobSpec(framework="tensorflow", launch="per_node", nodes=3, parameter_servers=2),
        )
    )
    return out


ALLOWED = allowed_specs()


@pytest.fixture(params=[s for _, s in ALLOWED], ids=[n for n, _ in ALLOWED])
def any_spec(request) -> JobSpec:
    return request.param
