"""What each rank will see, per distribution: the numbers the review screen and backends use."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.core.invariants import check_plan
from tui.core.prices import money, snapshot_meta, vm_price
from tui.core.spec import JobSpec, launch_mode_problem
from tui.frameworks.huggingface import ACCELERATE
from tui.frameworks.pytorch import TORCHRUN
from tui.planning.plan import AZUREML, Origin, Target
from tui.planning.plan import plan as planned


def plan(spec: JobSpec, target: Target = AZUREML):
    """The framework's plan alone: dtrain-tui's in-job helpers, which add their variables and
    an export to every plan of stacks > 0, are off here (tests/injob tests them)."""
    return planned(spec.with_changes(stacks=0), target)


def env(p, rank):
    return p.ranks[rank].env_dict()


def origin(p, rank, name):
    return next(v.origin for v in p.ranks[rank].env if v.name == name)


def test_pytorch_per_process_is_one_process_per_gpu_with_azureml_ranks():
    p = plan(JobSpec(nodes=2, gpus_per_node=8, env={"NCCL_DEBUG": "INFO"}))
    assert (p.instance_count, p.world_size, len(p.ranks)) == (2, 16, 16)
    assert p.distribution.as_yaml() == {"type": "pytorch", "process_count_per_instance": 8}
    assert p.command == "python train.py"
    r11 = env(p, 11)
    assert r11 == {
        "NCCL_DEBUG": "INFO",
        "MASTER_ADDR": "<node-0-ip>",
        "MASTER_PORT": "6105",
        "WORLD_SIZE": "16",
        "NODE_RANK": "1",
        "RANK": "11",
        "LOCAL_RANK": "3",
    }
    assert origin(p, 11, "RANK") is Origin.AZUREML
    assert origin(p, 11, "NCCL_DEBUG") is Origin.USER
    assert any("WORLD_SIZE = 2 nodes × 8 processes per node = 16" in e for e in p.explanations)


def test_pytorch_per_node_wraps_the_script_in_torchrun_with_the_node_count():
    p = plan(JobSpec(launch="per_node", nodes=2, gpus_per_node=8, args=("--lr", "0.1")))
    assert p.command == (
        "torchrun --nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK "
        "--master_addr $MASTER_ADDR --master_port $MASTER_PORT train.py --lr 0.1"
    )
    assert p.distribution.process_count_per_instance == 1
    assert p.nodes[1].command.startswith("torchrun --nnodes 2 --nproc_per_node 8 --node_rank 1 ")
    assert p.nodes[1].processes == 1 and p.nodes[1].workers == 8
    r9 = p.ranks[9]
    assert (r9.node, r9.local_rank) == (1, 1)
    e = r9.env_dict()
    assert (e["RANK"], e["LOCAL_RANK"], e["WORLD_SIZE"], e["NODE_RANK"]) == ("9", "1", "16", "1")
    assert origin(p, 9, "RANK") is TORCHRUN
    assert origin(p, 9, "NODE_RANK") is Origin.AZUREML
    world = next(v for v in r9.env if v.name == "WORLD_SIZE")
    assert world.note == "replaces Azure ML's 2"  # AML alone would say 2 nodes × 1 process


def test_per_node_launcher_process_gets_azure_mls_rank_of_the_node():
    p = plan(JobSpec(launch="per_node", nodes=2, gpus_per_node=8))
    node1 = {v.name: v.value for v in p.nodes[1].env}
    assert (node1["RANK"], node1["LOCAL_RANK"], node1["WORLD_SIZE"]) == ("1", "0", "2")
    worker = env(p, 9)
    assert worker["OMP_NUM_THREADS"] == "1" and worker["TORCHELASTIC_USE_AGENT_STORE"] == "True"
    own = plan(JobSpec(launch="per_node", env={"OMP_NUM_THREADS": "8"}))
    assert env(own, 3)["OMP_NUM_THREADS"] == "8"  # torchrun only sets it when unset


def test_accelerate_gets_machines_total_processes_and_main_process():
    p = plan(JobSpec(framework="huggingface", launch="per_node", nodes=2, gpus_per_node=8))
    assert p.command.startswith(
        "accelerate launch --multi_gpu --num_machines 2 --num_processes 16 "
        "--machine_rank $NODE_RANK --main_process_ip $MASTER_ADDR --main_process_port $MASTER_PORT "
        "train.py"
    )
    assert origin(p, 3, "LOCAL_RANK") is ACCELERATE


def test_lightning_per_process_passes_num_nodes_and_devices():
    p = plan(JobSpec(framework="lightning", nodes=2, gpus_per_node=8))
    assert p.command == "python train.py --trainer.num_nodes 2 --trainer.devices 8"
    assert not any("Lightning" in w for w in p.warnings)


def test_lightning_per_node_is_flagged_because_it_would_use_one_gpu_per_node():
    p = plan(JobSpec(framework="lightning", launch="per_node", nodes=2, gpus_per_node=8))
    assert p.world_size == 2
    assert any("LOCAL_RANK=0" in w and "1 GPU per node" in w for w in p.warnings)


def test_horovod_uses_mpi_with_one_rank_per_gpu_and_open_mpi_vars():
    p = plan(JobSpec(framework="horovod", nodes=2, gpus_per_node=4))
    assert p.distribution.as_yaml() == {"type": "mpi", "process_count_per_instance": 4}
    assert env(p, 6) == {
        "AZ_BATCH_MASTER_NODE": "<node-0-ip>:6105",
        "OMPI_COMM_WORLD_RANK": "6",
        "OMPI_COMM_WORLD_SIZE": "8",
        "OMPI_COMM_WORLD_LOCAL_RANK": "2",
        "OMPI_COMM_WORLD_LOCAL_SIZE": "4",
        "OMPI_COMM_WORLD_NODE_RANK": "2",  # the rank on its node, not the node's rank (1)
    }
    assert origin(p, 6, "OMPI_COMM_WORLD_RANK") is Origin.OPENMPI
    assert any("OMPI_COMM_WORLD_NODE_RANK is *not* the node rank" in e for e in p.explanations)


def deepspeed_over_mpi(nodes: int) -> JobSpec:
    return JobSpec(
        framework="deepspeed",
        launch="per_node",
        deepspeed_via="mpi",
        nodes=nodes,
        gpus_per_node=8,
        deepspeed_config="ds_config.json",
    )


def test_deepspeed_over_mpi_per_node_takes_node_rank_from_the_mpi_world_rank():
    p = plan(deepspeed_over_mpi(2))
    assert p.distribution.as_yaml() == {"type": "mpi", "process_count_per_instance": 1}
    assert p.command.startswith(
        "export NODE_RANK=$OMPI_COMM_WORLD_RANK MASTER_ADDR=${AZ_BATCH_MASTER_NODE%:*} "
        "MASTER_PORT=${AZ_BATCH_MASTER_NODE##*:} && torchrun --nnodes 2 --nproc_per_node 8"
    )
    assert "OMPI_COMM_WORLD_NODE_RANK" not in p.command
    assert p.command.endswith("train.py --deepspeed --deepspeed_config ds_config.json")
    e = env(p, 12)
    assert (e["NODE_RANK"], e["OMPI_COMM_WORLD_RANK"], e["RANK"], e["LOCAL_RANK"]) == (
        "1",
        "1",
        "12",
        "4",
    )
    assert origin(p, 12, "NODE_RANK") is Origin.COMMAND
    assert p.nodes[1].command.startswith(
        "export NODE_RANK=1 MASTER_ADDR=<node-0-ip> MASTER_PORT=6105 && torchrun"
    )


def test_bash_runs_the_plans_command_on_each_node_as_the_node_preview_says(tmp_path):
    """The job's one command, run by bash with what Azure ML and Open MPI set on each node,
    starts the launcher with the node rank and master address of that node's preview."""
    import shlex
    import subprocess

    p = plan(deepspeed_over_mpi(3))
    stub = tmp_path / "torchrun"  # prints what it was started with instead of training
    stub.write_text('#!/bin/sh\necho "$NODE_RANK $MASTER_ADDR $MASTER_PORT"\nprintf "%s\\n" "$@"\n')
    stub.chmod(0o755)
    ip = "10.0.0.4"
    for node in p.nodes:
        env = {v.name: v.value.replace("<node-0-ip>", ip) for v in node.env}
        env["PATH"] = f"{tmp_path}:/usr/bin:/bin"
        out = subprocess.run(
            ["bash", "-c", p.command], env=env, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        exports, launcher = node.command.replace("<node-0-ip>", ip).split(" && ")
        said = dict(kv.split("=", 1) for kv in shlex.split(exports)[1:])
        assert out[0].split() == [said["NODE_RANK"], said["MASTER_ADDR"], said["MASTER_PORT"]]
        assert out[0].split() == [str(node.node), ip, "6105"]
        assert out[1:] == shlex.split(launcher)[1:]


def test_tensorflow_mwms_sets_tf_config_per_node():
    p = plan(JobSpec(framework="tensorflow", launch="per_node", nodes=2, gpus_per_node=4))
    assert p.distribution.as_yaml() == {
        "type": "tensorflow",
        "worker_count": 2,
        "parameter_server_count": 0,
    }
    cfg = json.loads(env(p, 1)["TF_CONFIG"])
    assert cfg == {
        "cluster": {"worker": ["<node-0-ip>:2222", "<node-1-ip>:2222"]},
        "task": {"type": "worker", "index": 1},
        "environment": "cloud",
    }
    assert p.explanations[0].startswith("instance_count = 2 nodes, one per worker;")


def test_tensorflow_ps_adds_parameter_server_nodes():
    p = plan(JobSpec(framework="tensorflow", launch="per_node", nodes=2, parameter_servers=1))
    assert p.instance_count == 3
    assert p.explanations[0].startswith("instance_count = 2 workers + 1 parameter server = 3 nodes")
    ps = p.ranks[2]
    assert (ps.role, ps.task_index, ps.log_file) == ("ps", 0, "user_logs/std_log_node_00_ps.txt")
    assert json.loads(ps.env_dict()["TF_CONFIG"])["cluster"]["ps"] == ["<node-2-ip>:2222"]


def test_local_target_uses_loopback_and_the_free_ports_it_was_given():
    spec = JobSpec(framework="tensorflow", launch="per_node", nodes=2, parameter_servers=1)
    target = Target.for_spec("local", spec)
    p = plan(spec, target)
    hosts = json.loads(env(p, 0)["TF_CONFIG"])["cluster"]
    assert hosts["worker"] == [f"127.0.0.1:{target.ports[0]}", f"127.0.0.1:{target.ports[1]}"]
    assert len(set(target.ports) | {target.master_port}) == 4
    ddp = plan(JobSpec(), Target.local())
    assert env(ddp, 0)["MASTER_ADDR"] == "127.0.0.1"


def test_local_mpi_plan_shows_what_one_host_makes_open_mpi_report():
    p = plan(JobSpec(framework="horovod", nodes=2, gpus_per_node=2, sku=None), Target.local())
    assert env(p, 3)["OMPI_COMM_WORLD_LOCAL_RANK"] == "3"
    assert env(p, 3)["OMPI_COMM_WORLD_LOCAL_SIZE"] == "4"
    assert any("one host" in w for w in p.warnings)


def test_multi_node_without_infiniband_warns_and_single_node_does_not():
    no_ib = JobSpec(sku="Standard_NC96ads_A100_v4", gpus_per_node=4, nodes=2)
    assert any("no InfiniBand" in w for w in plan(no_ib).warnings)
    assert not any("InfiniBand" in w for w in plan(no_ib.with_changes(nodes=1)).warnings)


def test_rdma_without_sriov_warns_that_nccl_cannot_use_it():
    p = plan(JobSpec(sku="Standard_NC24r", gpus_per_node=4, nodes=2))
    assert any("RDMA but no SR-IOV" in w for w in p.warnings)


def test_user_env_that_the_distribution_sets_is_flagged():
    p = plan(JobSpec(env={"MASTER_PORT": "29500"}))
    assert any(w.startswith("env.MASTER_PORT:") for w in p.warnings)
    assert env(p, 0)["MASTER_PORT"] == "6105"


def test_a_verbatim_command_is_used_as_given():
    cmd = "bash run.sh --nodes ${{inputs.nodes}}"
    p = plan(JobSpec(command=cmd, framework="lightning"))
    assert p.command == cmd


# ---- properties over every valid spec --------------------------------------------------------


def valid(fw, launch):
    return launch_mode_problem(fw, launch) is None


@given(st.data())
def test_ranks_cover_the_world_exactly(data):
    fw = data.draw(st.sampled_from(["pytorch", "lightning", "huggingface", "deepspeed", "horovod"]))
    launch = data.draw(st.sampled_from(["per_process", "per_node"]).filter(lambda m: valid(fw, m)))
    n, g = data.draw(st.integers(1, 24)), data.draw(st.integers(1, 16))
    via = data.draw(st.sampled_from(["pytorch", "mpi"]))
    spec = JobSpec(
        framework=fw, launch=launch, nodes=n, gpus_per_node=g, sku=None, deepspeed_via=via
    )
    target = data.draw(st.sampled_from([AZUREML, Target("local", 29500, ())]))
    p = plan(spec, target)
    assert p.world_size == n * p.workers_per_node
    check_plan(p)
    if p.distribution.type == "mpi" and spec.launch == "per_process":
        assert all("OMPI_COMM_WORLD_RANK" in r.env_dict() for r in p.ranks)
    else:
        assert all("RANK" in r.env_dict() for r in p.ranks)


@given(st.integers(1, 32), st.integers(0, 8), st.sampled_from(["azureml", "local"]))
def test_tf_config_task_indices_cover_the_cluster(workers, ps, kind):
    spec = JobSpec(
        framework="tensorflow", launch="per_node", nodes=workers, parameter_servers=ps, sku=None
    )
    p = plan(spec, Target.for_spec(kind, spec))
    assert p.instance_count == workers + ps == len(p.ranks)
    configs = [json.loads(r.env_dict()["TF_CONFIG"]) for r in p.ranks]
    cluster = configs[0]["cluster"]
    assert all(c["cluster"] == cluster for c in configs)
    seen = sorted((c["task"]["type"], c["task"]["index"]) for c in configs)
    expected = sorted([("worker", i) for i in range(workers)] + [("ps", i) for i in range(ps)])
    assert seen == expected
    assert len(cluster["worker"]) == workers and len(cluster.get("ps", [])) == ps
    hosts = cluster["worker"] + cluster.get("ps", [])
    assert len(set(hosts)) == len(hosts)


def test_an_env_var_that_looks_like_a_secret_is_flagged():
    p = plan(JobSpec(env={"WANDB_API_KEY": "abc", "NCCL_DEBUG": "INFO"}))
    flagged = [w for w in p.warnings if "looks like a secret" in w]
    assert len(flagged) == 1 and flagged[0].startswith("env.WANDB_API_KEY:")


# Real variable names: the secrets' from the services' own docs, the others from NCCL, PyTorch,
# Hugging Face and Azure ML runs.
SECRET_NAMES = ["HF_TOKEN", "AZURE_STORAGE_CONNECTION_STRING", "AZURE_CLIENT_SECRET",
                "DB_PASSWORD", "PGPASSWORD", "REDIS_PASS", "AZURE_STORAGE_SAS_TOKEN",
                "DATA_SAS", "HTTP_AUTH", "SSH_PRIVATE_KEY", "WANDB_API_KEY"]  # fmt: skip
PLAIN_NAMES = ["NCCL_DEBUG", "MASTER_ADDR", "AUTHOR", "PASSES", "HF_HOME", "AZUREML_RUN_ID",
               "TORCH_DISTRIBUTED_DEBUG", "PYTHONPATH"]  # fmt: skip


def test_every_name_that_looks_like_a_secret_is_flagged_and_no_other():
    p = plan(JobSpec(env=dict.fromkeys(SECRET_NAMES + PLAIN_NAMES, "x")))
    flagged = {w.split(":")[0] for w in p.warnings if "looks like a secret" in w}
    assert flagged == {f"env.{name}" for name in SECRET_NAMES}


def test_the_example_scripts_hide_every_name_that_looks_like_a_secret_from_the_env_they_print():
    import ast
    import re
    from pathlib import Path

    scripts = sorted(Path(__file__).parents[2].glob("presets/scripts/*.py"))
    checked = 0
    for script in scripts:
        for node in ast.walk(ast.parse(script.read_text())):
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_SECRET":
                hidden = re.compile(node.value.args[0].value, re.IGNORECASE)
                assert all(hidden.search(n) for n in SECRET_NAMES), script.name
                assert not any(hidden.search(n) for n in PLAIN_NAMES), script.name
                checked += 1
    assert checked == 1, "the examples' one env printer (dtrain_env.py) was checked"
    printing = [s.name for s in scripts if "print(env_line()" in s.read_text()]
    assert len(printing) == 8 and all(
        "from dtrain_env import env_line" in (script.parent / name).read_text() for name in printing
    ), "every example that prints its environment prints it through dtrain_env"


def test_fewer_gpus_per_node_than_the_size_has_warns_of_paid_idle_gpus():
    p = plan(JobSpec(nodes=2, gpus_per_node=2, sku="Standard_ND96asr_v4"))
    idle = [w for w in p.warnings if "paid for and idle" in w]
    hourly = vm_price("Standard_ND96asr_v4").dedicated  # the shipped snapshot: no API in tests
    assert idle == [
        "sku: 2 of Standard_ND96asr_v4's 8 GPUs per node run a rank; the other 6 are paid for "
        "and idle (12 across 2 nodes). Set GPUs per node to 8. The idle GPUs cost "
        f"{money(hourly * 12 / 8)}/h dedicated (Azure retail prices, eastus, "
        f"{snapshot_meta()[1]} snapshot)."
    ]
    one = plan(JobSpec(nodes=1, gpus_per_node=2, sku="Standard_ND96asr_v4"))
    assert any("choose Standard_NC48ads_A100_v4 (2 GPUs)" in w for w in one.warnings)
    full = plan(JobSpec(nodes=2, gpus_per_node=8, sku="Standard_ND96asr_v4"))
    assert not any("idle" in w for w in full.warnings)
