"""The script check's mechanisms on small scripts shaped like the real ones issue 25 names: set-up
in a helper module, a guard in the caller, the plan's argv through argparse / click / typer /
fire / LightningCLI / HfArgumentParser, a flag default that turns distribution off, a second
launcher, and each framework's own clashes, each finding with the plan's numbers and a fix."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tui.core.spec import JobSpec
from tui.planning.script_check import check_file, check_source

DS = {"framework": "deepspeed"}
TF = {"framework": "tensorflow", "launch": "per_node"}


def rules(source: str, **fields) -> dict[str, list[int | None]]:
    report = check_source(source, JobSpec(**fields))
    found: dict[str, list[int | None]] = {}
    for f in report.findings:
        assert f.fix and f.rule and f.severity in ("error", "warning", "advice")
        found.setdefault(f.rule, []).append(f.line)
    found.pop("no_init_timeout", None)
    return found


def test_set_up_in_a_helper_module_counts_and_a_guard_in_the_caller_covers_the_callee(
    tmp_path: Path,
):
    (tmp_path / "utils.py").write_text(
        "import os, torch, torch.distributed as dist\n"
        "def init_distributed_mode(args):\n"
        "    args.gpu = int(os.environ['LOCAL_RANK'])\n"
        "    torch.cuda.set_device(args.gpu)\n"
        "    dist.init_process_group('nccl')\n"
        "def save(state, path):\n"
        "    torch.save(state, path)\n"
    )
    (tmp_path / "main.py").write_text(
        "import torch, utils\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "def main():\n"
        "    utils.init_distributed_mode(None)\n"
        "    model = DDP(torch.nn.Linear(2, 2))\n"
        "    if torch.distributed.get_rank() == 0:\n"
        "        utils.save(model.state_dict(), 'ckpt.pt')\n"
        "main()\n"
    )
    report = check_file(tmp_path / "main.py", JobSpec(script="main.py"))
    assert [f.rule for f in report.findings] == ["no_init_timeout"], report.findings
    assert report.findings[0].file == "utils.py" and report.findings[0].line == 5
    (tmp_path / "main.py").write_text(
        (tmp_path / "main.py").read_text().replace("torch.distributed.get_rank() == 0", "model")
    )
    unguarded = check_file(tmp_path / "main.py", JobSpec(script="main.py"))
    (write,) = [f for f in unguarded.findings if f.rule == "unguarded_write"]
    assert (write.file, write.line) == ("utils.py", 7) and "16 ranks" in write.what


SPAWNED = """\
import os, torch, torch.multiprocessing as mp
from torch.distributed import init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP

def ddp_setup(rank, world_size):
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "12355"
    torch.cuda.set_device(rank)
    init_process_group(backend="nccl", rank=rank, world_size=world_size)

def main(rank, world_size):
    ddp_setup(rank, world_size)
    model = DDP(torch.nn.Linear(2, 2).to(rank), device_ids=[rank])

if __name__ == "__main__":
    world_size = torch.cuda.device_count()
    mp.spawn(main, args=(world_size,), nprocs=world_size)
"""


def test_a_script_that_spawns_its_own_processes_under_a_per_process_plan():
    found = rules(SPAWNED)
    assert found == {
        "hardcoded_master": [6],
        "rank_not_from_env": [9],
        "spawn_under_launcher": [17],
    }
    message = next(
        f.what for f in check_source(SPAWNED, JobSpec()).findings if f.rule.startswith("spawn")
    )
    assert "nprocs=8" in message and "8 x 8" in message


PLAIN_ARGPARSE = """\
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
args = parser.parse_args()
"""


def test_the_plans_arguments_through_the_scripts_parser():
    # argparse under a Lightning plan: --trainer.num_nodes 2 --trainer.devices 8
    lightning = {"framework": "lightning"}
    assert rules(PLAIN_ARGPARSE, **lightning)["argv_rejected"] == [4]
    known = PLAIN_ARGPARSE.replace("parse_args()", "parse_known_args()[0]")
    assert "argv_rejected" not in rules(known, **lightning)
    # a type the argument does not fit, a required one the command lacks
    typed = PLAIN_ARGPARSE + ""
    report = check_source(typed, JobSpec(args=("--epochs", "three")))
    assert "whole number" in report.findings[0].what
    required = PLAIN_ARGPARSE.replace("default=1", "required=True")
    assert rules(required)["argv_rejected"] == [4]
    # fire.Fire(train) and argparse given --deepspeed --deepspeed_config
    fire = "import fire\ndef train(lr=0.1, epochs=1):\n    pass\nfire.Fire(train)\n"
    assert rules(fire, **DS)["argv_rejected"] == [4]
    added = PLAIN_ARGPARSE.replace(
        "args = parser",
        "import deepspeed\nparser = deepspeed.add_config_arguments(parser)\nargs = parser",
    )
    assert "argv_rejected" not in rules(added, **DS)
    # click and typer
    click = (
        "import click\n@click.command()\n@click.option('--lr', type=float, default=0.1)\n"
        "def main(lr):\n    pass\nmain()\n"
    )
    assert "argv_rejected" in rules(click, **lightning)
    typer = "import typer\ndef main(lr: float = 0.1):\n    pass\ntyper.run(main)\n"
    app = (
        "import typer, torch\napp = typer.Typer()\n@app.command()\n"
        "def main(lr: float = 0.1):\n    torch.save({}, 'x.pt')\napp()\n"
    )  # a command typer runs without its name being called: its code is checked
    assert rules(app, args=("--lr", "0.2")) == {"no_process_group": [None], "unguarded_write": [5]}
    assert "argv_rejected" in rules(typer, **lightning)
    assert "argv_rejected" not in rules(typer, args=("--lr", "0.5"))
    # hydra takes key=value overrides only; its argparse runs where main() is called
    hydra = "import hydra\n@hydra.main(config_path='conf')\ndef main(cfg):\n    pass\nmain()\n"
    assert rules(hydra, **lightning)["argv_rejected"] == [5]
    assert "argv_rejected" not in rules(hydra, args=("trainer.max_epochs=3", "-m"))
    # LightningCLI takes --trainer.*; HfArgumentParser's --deepspeed takes a file
    cli = "from lightning.pytorch.cli import LightningCLI\nLightningCLI(M, D, run=False)\n"
    assert "argv_rejected" not in rules(cli, **lightning)
    runs = cli.replace(", run=False", "")  # a sub-command first: fit, validate, ...
    assert rules(runs, **lightning)["argv_rejected"] == [2]
    assert "argv_rejected" not in rules(runs, **lightning, args=("fit",))
    hf = (
        "from transformers import HfArgumentParser, TrainingArguments, Trainer\n"
        "(args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()\n"
        "Trainer(model=m, args=args).train()\n"
    )
    assert rules(hf, **DS) == {"argv_rejected": [2]}
    assert rules(hf, args=("--output_dir", "out", "--learning_rate", "1e-4")) == {}


IMAGENET = """\
import argparse, os, torch, torch.distributed as dist
parser = argparse.ArgumentParser()
parser.add_argument("--world-size", default=-1, type=int)
parser.add_argument("--dist-url", default="tcp://224.66.41.62:23456", type=str)
parser.add_argument("--multiprocessing-distributed", action="store_true")
def main():
    args = parser.parse_args()
    if args.dist_url == "env://" and args.world_size == -1:
        args.world_size = int(os.environ["WORLD_SIZE"])
    args.distributed = args.world_size > 1 or args.multiprocessing_distributed
    if args.distributed:
        dist.init_process_group("nccl", init_method=args.dist_url, world_size=args.world_size)
main()
"""


def test_a_flag_default_that_leaves_distribution_off_is_named_at_its_add_argument():
    report = check_source(IMAGENET, JobSpec())
    (off,) = [f for f in report.findings if f.rule == "distribution_disabled_by_flag"]
    assert off.line == 3 and "--world-size" in off.what and "-1" in off.what
    given = JobSpec(args=("--dist-url", "env://"))
    assert "distribution_disabled_by_flag" not in rules(IMAGENET, **given.model_dump())


def test_a_flag_a_helper_turns_on_later_does_not_leave_distribution_off(tmp_path: Path):
    (tmp_path / "utils.py").write_text(
        "import os\n"
        "def init_distributed_mode(args):\n"
        "    if 'RANK' in os.environ:\n"
        "        args.distributed = True\n"
    )
    (tmp_path / "train.py").write_text(
        "import argparse, torch, utils\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--distributed', action='store_true')\n"
        "def main(args):\n"
        "    utils.init_distributed_mode(args)\n"
        "    if args.distributed:\n"
        "        torch.distributed.init_process_group('nccl')\n"
        "main(p.parse_args())\n"
    )
    report = check_file(tmp_path / "train.py", JobSpec())
    assert "distribution_disabled_by_flag" not in {f.rule for f in report.findings}
    (tmp_path / "utils.py").write_text("def init_distributed_mode(args):\n    pass\n")
    report = check_file(tmp_path / "train.py", JobSpec())
    (off,) = [f for f in report.findings if f.rule == "distribution_disabled_by_flag"]
    assert off.line == 3 and "False" in off.what


def test_deepspeed_config_given_twice_and_a_batch_the_ranks_cannot_split():
    source = (
        "import argparse, deepspeed\n"
        "parser = deepspeed.add_config_arguments(argparse.ArgumentParser())\n"
        "args = parser.parse_args()\n"
        "config = {'train_batch_size': 100, 'train_micro_batch_size_per_gpu': 4}\n"
        "engine, _, _, _ = deepspeed.initialize(args=args, model=m, config=config)\n"
        "engine.save_checkpoint('ckpt')\n"
    )
    found = rules(source, **DS)
    # (and the engine's ZeRO parts saved into ./ckpt, each node's own: issue 38)
    assert found == {
        "deepspeed_config_twice": [5],
        "batch_not_divisible": [4],
        "checkpoint_node_local": [6],
    }


def test_tensorflow_cluster_clashes():
    source = (
        "import json, os, argparse, tensorflow as tf\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--task_index', type=int, default=0)\n"
        "args = p.parse_args()\n"
        "os.environ['TF_CONFIG'] = json.dumps({'task': {'type': 'worker', 'index': 0}})\n"
        "resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
        "strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)\n"
        "if resolver.task_type == 'chief':\n"
        "    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)\n"
        "with strategy.scope():\n"
        "    model = tf.keras.Sequential([])\n"
    )
    found = rules(source, **TF, parameter_servers=1)
    assert found == {
        "tf_config_overwritten": [5],
        "tf_task_from_flags": [3],
        "ps_coordinator_on_missing_chief": [8],
    }


def test_absl_flags_an_undefined_one_stops_the_program():
    source = (
        "import tensorflow as tf\n"
        "tf.app.flags.DEFINE_string('data_dir', '/tmp', 'data')\n"
        "tf.app.flags.DEFINE_boolean('sync', False, 'sync')\n"
        "strategy = tf.distribute.MultiWorkerMirroredStrategy()\n"
        "with strategy.scope():\n"
        "    model = tf.keras.Sequential([])\n"
        "tf.app.run()\n"
    )
    assert rules(source, **TF, args=("--data_dir", "d", "--nosync")) == {}
    assert rules(source, **TF, args=("--epochs", "3")) == {"argv_rejected": [7]}


def test_whose_trainer_it_is_decides_who_handles_the_ranks():
    lightning = (
        "import lightning as L\nfrom transformers import AutoTokenizer\n"
        "trainer = L.Trainer(devices=1)\n"
    )
    # a Lightning script that also uses transformers is Lightning's, under any plan
    assert rules(lightning, framework="lightning") == {"trainer_shape_mismatch": [3]}
    assert rules(lightning) == {"trainer_shape_mismatch": [3]}
    # the DDP tutorial's own `class Trainer:` is nobody's library
    own = SPAWNED + "class Trainer:\n    pass\nTrainer()\n"
    assert "spawn_under_launcher" in rules(own)
    cli = (
        "from lightning.pytorch.cli import LightningCLI\nclass MyCLI(LightningCLI):\n"
        "    pass\nMyCLI(M, D)\n"
    )  # a CLI of the script's own, built on LightningCLI, runs a sub-command too
    assert rules(cli, framework="lightning", args=("fit",)) == {}
    assert rules(cli, framework="lightning") == {"argv_rejected": [4]}
    hf = (
        "from transformers import Trainer\nclass MyTrainer(Trainer):\n    pass\n"
        "MyTrainer(model=m).train()\n"
    )
    report = check_source(hf, JobSpec())
    assert report.clean and "Trainer / Accelerate" in report.notes[0]


def test_a_map_style_loader_needs_a_sampler_an_iterable_one_is_not_this_rules():
    head = (
        "import torch\nfrom torch.utils.data import DataLoader, IterableDataset\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "torch.distributed.init_process_group('nccl')\n"
        "model = DDP(torch.nn.Linear(2, 2))\n"
        "class Stream(IterableDataset):\n    pass\n"
    )
    mapped = head + "loader = DataLoader(list(range(9)), batch_size=2)\n"
    assert rules(mapped)["no_distributed_sampler"] == [8]
    streamed = head + "data = Stream()\nloader = DataLoader(data, batch_size=2)\n"
    assert "no_distributed_sampler" not in rules(streamed)


def test_horovod_a_scripts_own_save_checkpoint_and_elastic_state():
    source = (
        "import torch, horovod.torch as hvd\n"
        "hvd.init()\ntorch.cuda.set_device(hvd.local_rank())\n"
        "opt = hvd.DistributedOptimizer(torch.optim.SGD([], lr=0.1))\n"
        "state = hvd.elastic.TorchState(model, opt)\n"
        "def save_checkpoint(epoch):\n"
        "    if hvd.rank() == 0:\n"
        "        torch.save({}, 'ckpt.pt')\n"
        "for epoch in range(3):\n    save_checkpoint(epoch)\n"
    )
    assert rules(source, framework="horovod") == {}


def test_a_device_mesh_is_a_process_group_that_picks_each_processs_gpu():
    source = (
        "import os, torch\nfrom torch.distributed.device_mesh import init_device_mesh\n"
        "from torch.distributed.tensor.parallel import parallelize_module\n"
        "kind = torch.accelerator.current_accelerator().type\n"
        "mesh = init_device_mesh(kind, (int(os.environ['WORLD_SIZE']),))\n"
        "model = parallelize_module(torch.nn.Linear(2, 2).to(kind), mesh, {})\n"
    )
    assert rules(source) == {}


def test_check_json_lists_findings_with_file_line_rule_severity_message_fix(tmp_path: Path):
    (tmp_path / "train.py").write_text(SPAWNED)
    out = subprocess.run(
        [sys.executable, "-m", "tui", "check", "--json", "--set", f"code={tmp_path}"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 1, out.stderr
    findings = json.loads(out.stdout)
    assert {tuple(sorted(f)) for f in findings} == {
        ("file", "fix", "line", "message", "rule", "severity")
    }
    assert {f["rule"] for f in findings} >= {"hardcoded_master", "spawn_under_launcher"}
    assert all(f["file"].endswith("train.py") for f in findings)


def test_a_rank_read_from_the_launchers_environment_in_a_flag_chosen_branch_is_right():
    # The shape of MAE's util.misc.init_distributed_mode: a flag picks which branch reads the
    # rank; the branch a per-process launch reaches reads RANK / WORLD_SIZE / LOCAL_RANK.
    script = (
        "import argparse, os, torch, torch.distributed as dist\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--dist_on_itp', action='store_true')\n"
        "args = p.parse_args()\n"
        "if args.dist_on_itp:\n"
        "    rank = int(os.environ['OMPI_COMM_WORLD_RANK'])\n"
        "    world = int(os.environ['OMPI_COMM_WORLD_SIZE'])\n"
        "    gpu = int(os.environ['OMPI_COMM_WORLD_LOCAL_RANK'])\n"
        "elif 'RANK' in os.environ and 'WORLD_SIZE' in os.environ:\n"
        "    rank = int(os.environ['RANK'])\n"
        "    world = int(os.environ['WORLD_SIZE'])\n"
        "    gpu = int(os.environ['LOCAL_RANK'])\n"
        "else:\n"
        "    rank, world, gpu = 0, 1, 0\n"
        "torch.cuda.set_device(gpu)\n"
        "dist.init_process_group('nccl', rank=rank, world_size=world)\n"
        "model = DDP(torch.nn.Linear(2, 2).cuda(gpu), device_ids=[gpu])\n"
    )
    found = rules(script, nodes=2, gpus_per_node=8)
    assert "rank_not_from_env" not in found and "distribution_disabled_by_flag" not in found
    assert "device_not_local_rank" not in found, found
