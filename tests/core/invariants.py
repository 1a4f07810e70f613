"""What holds for every plan, whatever spec it came from: the fuzz and property tests check it."""

from __future__ import annotations

import json
from collections import Counter

from tui.frameworks.deepspeed import DEEPSPEED
from tui.planning.plan import LaunchPlan, Origin


def check_plan(p: LaunchPlan) -> None:
    """Ranks 0..N-1 once each, on the nodes the plan lists, and every rank variable that says
    where a process sits agrees with the rank's place."""
    ranks = list(p.ranks)
    assert [r.rank for r in ranks] == list(range(len(ranks)))
    assert len(p.nodes) == p.instance_count >= 1
    assert [n.node for n in p.nodes] == list(range(p.instance_count))
    per_node = Counter(r.node for r in ranks)
    assert [per_node[n.node] for n in p.nodes] == [n.workers for n in p.nodes]
    if p.distribution.type == "tensorflow":
        _check_tensorflow(p)
        return
    workers = p.workers_per_node
    assert p.world_size == p.instance_count * workers == len(ranks) >= 1
    for r in ranks:
        assert 0 <= r.local_rank < workers and 0 <= r.node < p.instance_count
        assert r.rank == r.node * workers + r.local_rank
        expected = {
            "RANK": r.rank,
            "LOCAL_RANK": r.local_rank,
            "WORLD_SIZE": p.world_size,
            "NODE_RANK": r.node,
        }
        if p.spec.launch == "per_process":  # Open MPI's processes are the ranks
            expected |= {"OMPI_COMM_WORLD_RANK": r.rank, "OMPI_COMM_WORLD_SIZE": p.world_size}
            if p.target.kind == "azureml":  # a rehearsal's simulated nodes share one host
                expected["OMPI_COMM_WORLD_LOCAL_RANK"] = r.local_rank
        else:  # one Open MPI process per node starts the node's launcher
            expected |= {"OMPI_COMM_WORLD_RANK": r.node, "OMPI_COMM_WORLD_SIZE": p.instance_count}
        for var in r.env:  # what Azure ML or a launcher sets (a user's own value stays as is)
            want = expected.get(var.name)
            if (var.name, var.origin, p.target.kind) == ("LOCAL_RANK", DEEPSPEED, "local"):
                want = r.rank  # DeepSpeed copies Open MPI's local rank: one host, all local
            if want is not None and var.origin is not Origin.USER:
                assert var.value == str(want), (r.rank, var)


def _check_tensorflow(p: LaunchPlan) -> None:
    # One task per node: the workers, then the parameter servers, each counted from 0.
    ranks = list(p.ranks)
    assert all(r.local_rank == 0 and r.node == r.rank for r in ranks)
    workers = [r.task_index for r in ranks if r.role == "worker"]
    servers = [r.task_index for r in ranks if r.role == "ps"]
    assert workers == list(range(len(workers))) and servers == list(range(len(servers)))
    assert p.world_size == len(workers) >= 1 and len(ranks) == len(workers) + len(servers)
    for r in ranks:
        config = r.env_dict().get("TF_CONFIG")
        if config is not None:
            task = json.loads(config)["task"]
            assert (task["type"], task["index"]) == (r.role, r.task_index)
