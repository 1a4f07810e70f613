"""Files across nodes (issue 38): each node has its own working folder and disk, `outputs/` is
gathered after the job, a mounted input is shared. The check says who writes what where and
whether the reader is on the same node."""

from __future__ import annotations

import pytest

from tui.core.spec import JobSpec
from tui.planning.script_check import check_source

HEAD = "import os, time, torch, torchvision\nimport torch.distributed as dist\n"
HEAD += "dist.init_process_group('nccl')\nrank = dist.get_rank()\n"
HEAD += "local_rank = int(os.environ['LOCAL_RANK'])\ntorch.cuda.set_device(local_rank)\n"


def rules(body: str, **plan: object) -> list[tuple[str, int | None]]:
    report = check_source(HEAD + body, JobSpec(**plan), "train.py")
    return [(f.rule, f.line) for f in report.findings if f.rule in FILE_RULES]


FILE_RULES = {
    "node_local_file_from_rank0",
    "download_race",
    "checkpoint_node_local",
    "run_dir_per_process",
}


GLOBAL_FIRST = """
if rank != 0:
    dist.barrier()
data = torchvision.datasets.CIFAR10(root="./data", download=True)
if rank == 0:
    dist.barrier()
"""


def test_data_only_global_rank_0_downloads_is_missing_on_the_other_nodes():
    assert rules(GLOBAL_FIRST) == [("node_local_file_from_rank0", 8)]
    guarded = 'if rank == 0:\n    torchvision.datasets.MNIST("data", download=True)\n'
    assert rules(guarded) == [("node_local_file_from_rank0", 7)]
    assert "node_local_file_from_rank0" not in dict(rules(GLOBAL_FIRST, nodes=1))


@pytest.mark.parametrize(
    "body",
    [
        GLOBAL_FIRST.replace("rank != 0", "local_rank != 0").replace(
            "rank == 0", "local_rank == 0"
        ),
        'torchvision.datasets.MNIST("${{inputs.data}}", download=True)\n',
        'torchvision.datasets.MNIST(f"./data-{rank}", download=True)\n',
        'torchvision.datasets.MNIST("./data", download=False)\n',
    ],
    ids=["local rank 0 per node", "a mounted input", "a folder per rank", "no download"],
)
def test_a_download_each_node_has_is_right(body):
    assert rules(body) == []


def test_every_rank_downloading_into_one_folder_races_within_the_node():
    body = 'torchvision.datasets.MNIST("../data", download=True)\n'
    assert rules(body) == [("download_race", 7)]
    assert rules(body, gpus_per_node=1) == []  # one process per node: nothing to race


def test_a_collective_checkpoint_on_a_node_local_path_is_scattered_over_the_nodes():
    save = "engine.save_checkpoint({path}, tag='last')\n"
    assert rules(save.format(path="'/tmp/ckpt'")) == [("checkpoint_node_local", 7)]
    assert rules(save.format(path="'outputs/ckpt'")) == []  # gathered after the job
    assert rules(save.format(path="'/tmp/ckpt'"), nodes=1) == []
    stamped = "run = 'runs/' + time.strftime('%H%M%S')\n" + save.format(path="run")
    assert rules(stamped) == [("run_dir_per_process", 8)]


ARGS = "import argparse\np = argparse.ArgumentParser()\n"


@pytest.mark.parametrize(
    ("body", "rule", "line"),
    [
        (ARGS + "p.add_argument('--epochs', type=int, default=-1)\na = p.parse_args()\n"
         "for e in range(a.epochs):\n    pass\n", "default_runs_nothing", 11),
        (ARGS + "p.add_argument('--save-dir', default=None)\na = p.parse_args()\n"
         "torch.save({}, os.path.join(a.save_dir, 'm.pt'))\n", "default_path_none", 11),
        (ARGS + "p.add_argument('--device', default='cpu')\na = p.parse_args()\n"
         "model = torch.nn.Linear(2, 2).to(a.device)\n", "default_device_cpu", 11),
    ],
    ids=["epochs -1", "save path None", "device cpu"],
)  # fmt: skip
def test_a_default_the_command_does_not_give_is_followed_into_its_use(body, rule, line):
    report = check_source(HEAD + body, JobSpec(), "train.py")
    assert (rule, line) in [(f.rule, f.line) for f in report.findings]
    flag = body.split("add_argument('")[1].split("'")[0]
    given = {"--epochs": "3", "--save-dir": "outputs", "--device": "cuda"}[flag]
    report = check_source(HEAD + body, JobSpec(args=(flag, given)), "train.py")
    assert rule not in {f.rule for f in report.findings}
