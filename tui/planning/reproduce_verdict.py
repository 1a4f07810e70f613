"""The comparison of two runs of one job, the cluster's and the reproduction's here
(`dtrain-tui reproduce` and the app's `R`): each run's doctor said in one line, then the same
failure here, a different one, or none here ("it fails only at scale", with the likely reason).

Pure: the two diagnoses (or the line saying why one could not be made) and the reproduction
come in; nothing is read here.
"""

from __future__ import annotations

_BETWEEN_NODES = {
    "nccl_timeout",
    "nccl_system_error",
    "rendezvous_timeout",
    "hang",
    "node_failure",
    "mpi_error",
    "tf_cluster_error",
}
_SIZE = {"cuda_oom", "host_oom_killed", "disk_full"}
_PLATFORM = {
    "image_pull_failed",
    "environment_build_failed",
    "data_access_failed",
    "capacity_or_quota",
    "node_preempted",
    "job_time_limit",
    "azureml_system_error",
}


def verdict(there, here, rep) -> list[str]:
    """What each run's doctor said, then the comparison: the same failure here, a different
    one, or none here ("it fails only at scale", with the likely reason). `there` and `here`
    are diagnoses, or the line saying why one could not be made."""
    lines = [f"on the cluster: {_said(there)}", f"here: {_said(here)}"]
    if isinstance(there, str) or isinstance(here, str):
        lines.append("cannot compare the two runs without both diagnoses")
    elif there.failed and here.failed and there.cause == here.cause:
        lines.append(
            f"same failure here: {here.title}. Fix it here, where a try takes seconds: {here.fix}"
        )
    elif there.failed and here.failed:
        lines.append(
            f"a different failure here: {here.title}, not the cluster's {there.title}; what "
            "differs from the cluster (listed above) is the likely reason"
        )
    elif there.failed:
        lines.append(
            f"none here: it fails only at scale: the cause is likely {_at_scale(there, rep)}"
        )
    elif here.failed:
        lines.append(
            f"a failure here that the cluster did not have: {here.title}; what differs from "
            "the cluster (listed above) is the likely reason"
        )
    else:
        lines.append("none here, and none on the cluster")
    return lines


def _said(d) -> str:
    if isinstance(d, str):
        return d
    if d.failed:
        return d.title + (f" (rank {d.rank})" if d.rank is not None else "")
    return "completed (proven healthy)" if d.healthy else "no failure found, not proven healthy"


def _at_scale(there, rep) -> str:
    """Why a failure of the cluster's does not happen at the shape run here."""
    local = rep.local
    shape = f"{local.instance_count} × {local.workers_per_node}"
    if there.cause in _PLATFORM:
        return f"the platform: {there.title} comes from Azure ML, not from the script"
    if there.cause in _BETWEEN_NODES:
        return f"the network between nodes: {there.title} needs nodes, which a run here has not"
    if there.cause in _SIZE:
        return f"the size: {there.title} at the cluster's size, which {shape} here does not reach"
    if there.rank is not None and there.rank >= local.world_size:
        return (
            f"rank {there.rank}, which does not exist at {shape} (WORLD_SIZE "
            f"{local.world_size}): what that rank does differently (its share of the data, its "
            "role), or the job's size"
        )
    return f"what differs from the cluster (listed above): {there.title} did not happen at {shape}"
