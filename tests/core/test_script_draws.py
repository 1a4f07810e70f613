"""What each rank draws (issue 38): splits and samplers the ranks must make alike, a dataset too
small for the plan's ranks x batch; and what the fresh scripts showed: a library's own rank test,
set-up and DDP wrap, a sampler seeded per rank on purpose, a flag's default passed down as a
parameter, Keras' dataset cache, and the report leading with what breaks."""

from __future__ import annotations

from tui.core.spec import JobSpec
from tui.planning.script_check import check_file, check_source

HEAD = "import os, torch\nimport torch.distributed as dist\n"
HEAD += "from torch.utils.data import DataLoader, DistributedSampler, random_split\n"
HEAD += "from torch.nn.parallel import DistributedDataParallel as DDP\n"
HEAD += "dist.init_process_group('nccl', timeout=None)\nrank = dist.get_rank()\n"
HEAD += "local_rank = int(os.environ['LOCAL_RANK'])\ntorch.cuda.set_device(local_rank)\n"
HEAD += "model = DDP(torch.nn.Linear(2, 2).cuda(), device_ids=[local_rank])\n"
AT = HEAD.count("\n") + 1
"""The line the body of each script starts on."""


ASIDE = {"no_init_timeout", "sampler_no_set_epoch"}
"""Rules these scripts do not test (they reshuffle nothing by epoch)."""


def findings(body: str, **plan: object) -> list[tuple[str, int | None]]:
    report = check_source(HEAD + body, JobSpec(**plan), "train.py")
    return [(f.rule, f.line) for f in report.findings if f.rule not in ASIDE]


def test_a_split_every_rank_makes_unseeded_or_seeded_by_rank_is_found():
    split = "train, val = random_split(data, [90, 10]{})\n"
    body = "data = list(range(100))\n" + split
    sampler = "loader = DataLoader(train, sampler=DistributedSampler(train))\n"
    assert findings(body.format("") + sampler) == [("seed_per_process", AT + 1)]
    per_rank = body.format(", generator=torch.Generator().manual_seed(rank)") + sampler
    assert findings(per_rank) == [("seed_per_process", AT + 1)]
    global_per_rank = "torch.manual_seed(42 + rank)\n" + body.format("") + sampler
    assert findings(global_per_rank) == [("seed_per_process", AT + 2)]


def test_a_split_the_ranks_share_is_right():
    body = "data = list(range(100))\ntrain, val = random_split(data, [90, 10]{})\n"
    sampler = "loader = DataLoader(train, sampler=DistributedSampler(train))\n"
    same = body.format(", generator=torch.Generator().manual_seed(42)") + sampler
    assert findings(same) == []
    assert findings("torch.manual_seed(0)\n" + body.format("") + sampler) == []
    guarded = "if rank == 0:\n    train, val = random_split(list(range(9)), [8, 1])\n"
    assert findings(guarded) == []


def test_a_distributed_samplers_seed_must_not_differ_per_rank():
    body = (
        "data = list(range(100))\nloader = DataLoader(data, sampler=DistributedSampler(data, {}))\n"
    )
    assert findings(body.format("seed=1234 + rank")) == [("seed_per_process", AT + 1)]
    assert findings(body.format("seed=1234")) == []


def test_a_dataset_smaller_than_ranks_times_batch_gives_no_batch():
    body = (
        "import argparse\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--n', type=int, default={n})\n"
        "args = p.parse_args()\n"
        "data = torch.utils.data.TensorDataset(torch.randn(args.n, 3))\n"
        "s = DistributedSampler(data)\n"
        "loader = DataLoader(data, batch_size=64, sampler=s, drop_last={drop})\n"
    )
    small = findings(body.format(n=1000, drop=True))  # 2 x 8 ranks: 63 each, under 64
    assert small == [("zero_batches_per_rank", AT + 6)]
    report = check_source(HEAD + body.format(n=1000, drop=True), JobSpec(), "train.py")
    (said,) = [f for f in report.findings if f.rule == "zero_batches_per_rank"]
    assert "1000 examples" in said.what and "16 ranks" in said.what and "1024" in said.fix
    assert findings(body.format(n=1000, drop=True), nodes=1) == []  # 125 each on 8 ranks
    assert findings(body.format(n=1000, drop=False)) == []  # one partial batch each
    plan_gives = findings(body.format(n=1000, drop=True), args=["--n", "100000"])
    assert plan_gives == []


def test_a_librarys_rank_test_set_up_and_wrap_count():
    """timm's train.py: `utils.is_primary(args)` guards writes, `utils.init_distributed_device`
    picks the device, `task.prepare_distributed(device_ids=[device])` wraps the model."""
    source = (
        "import torch, timm.utils as utils\n"
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def main(args):\n"
        "    device = utils.init_distributed_device(args)\n"
        "    model = torch.nn.Linear(2, 2).to(device)\n"
        "    task.prepare_distributed(device_ids=[device])\n"
        "    data = list(range(9))\n"
        "    loader = DataLoader(data, sampler=DistributedSampler(data))\n"
        "    for epoch in range(3):\n"
        "        loader.sampler.set_epoch(epoch)\n"
        "    if utils.is_primary(args):\n"
        "        torch.save(model.state_dict(), 'outputs/m.pt')\n"
        "main(None)\n"
    )
    report = check_source(source, JobSpec(), "train.py")
    assert [f.rule for f in report.findings] == [], report.findings
    unguarded = source.replace("if utils.is_primary(args):", "if True:")
    assert [f.rule for f in check_source(unguarded, JobSpec(), "train.py").findings] == [
        "unguarded_write"
    ]


def test_a_sampler_seeded_per_rank_on_purpose_shards_the_data():
    """Sampling with replacement from a generator seeded by the rank: each rank its own draw."""
    source = (
        "import os, torch, torch.distributed as dist\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "dist.init_process_group('nccl', timeout=None)\n"
        "rank, local_rank = dist.get_rank(), int(os.environ['LOCAL_RANK'])\n"
        "model = DDP(torch.nn.Linear(2, 2).to(local_rank), device_ids=[local_rank])\n"
        "data = list(range(100))\n"
        "g = torch.Generator()\n"
        "g.manual_seed(7 * 16 + rank)\n"
        "s = torch.utils.data.RandomSampler(data, replacement=True, num_samples=64, generator=g)\n"
        "loader = torch.utils.data.DataLoader(data, batch_size=8, sampler=s)\n"
    )
    assert [f.rule for f in check_source(source, JobSpec()).findings] == []
    unseeded = check_source(source.replace("generator=g", "generator=None"), JobSpec())
    assert [(f.rule, f.line) for f in unseeded.findings] == [("no_distributed_sampler", 10)]


def test_a_flags_default_passed_down_as_a_parameter_picks_the_device():
    """`main_worker(args.local_rank, ...)` then `torch.cuda.set_device(local_rank)`: the flag's
    default (-1) is what every process gets under a plan that passes no --local_rank."""
    source = (
        "import argparse, torch, torch.distributed as dist\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--local_rank', type=int, default=-1)\n"
        "def main():\n"
        "    args = p.parse_args()\n"
        "    main_worker(args.local_rank, args)\n"
        "def main_worker(local_rank, args):\n"
        "    dist.init_process_group('nccl')\n"
        "    torch.cuda.set_device(local_rank)\n"
        "    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2))\n"
        "main()\n"
    )
    report = check_source(source, JobSpec(), "train.py")
    device = [f for f in report.findings if f.rule == "device_not_local_rank"]
    assert [f.line for f in device] == [9] and "--local_rank's default (-1)" in device[0].what
    from_env = source.replace("default=-1", "default=int(os.environ['LOCAL_RANK'])")
    from_env = from_env.replace("import argparse,", "import os, argparse,")
    fixed = check_source(from_env, JobSpec(), "train.py")
    assert "device_not_local_rank" not in [f.rule for f in fixed.findings]


def test_keras_datasets_download_into_each_nodes_home_cache():
    source = (
        "import horovod.keras as hvd\nfrom keras.datasets import mnist\nhvd.init()\n"
        "(x, y), _ = mnist.load_data({})\n"
    )
    plan = {"framework": "horovod"}
    shared = check_source(source.format(""), JobSpec(**plan), "train.py")
    (race,) = [f for f in shared.findings if f.rule == "download_race"]
    assert race.line == 4 and "~/.keras/datasets" in race.what
    own = check_source(source.format("path='mnist-%d.npz' % hvd.rank()"), JobSpec(**plan))
    assert "download_race" not in [f.rule for f in own.findings]


def test_the_report_leads_with_what_breaks():
    """A missing timeout (advice) and a slow backend (warning) come after a real error, whatever
    the order of the lines they are about."""
    source = (
        "import torch, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "model = torch.nn.Linear(2, 2).cuda()\n"
        "model = torch.nn.parallel.DistributedDataParallel(model)\n"
    )
    report = check_source(source, JobSpec(), "train.py")
    severities = [f.severity for f in report.findings]
    assert severities[0] == "error" and "advice" in severities, report.findings
    order = {"error": 0, "warning": 1, "advice": 2}
    assert severities == sorted(severities, key=order.__getitem__)
    assert report.findings[0].line == 3  # the GPU not chosen by local rank, below the gloo line


def test_one_nodes_gpu_count_used_as_the_world_size_is_found_on_several_nodes():
    """tczhangzhi's reduce_mean: an all-reduced sum divided by `torch.cuda.device_count()`,
    reached through `args.nprocs` and a parameter."""
    source = (
        "import os, torch, torch.distributed as dist\n"
        "def reduce_mean(tensor, nprocs):\n"
        "    rt = tensor.clone()\n"
        "    dist.all_reduce(rt)\n"
        "    rt /= nprocs\n"
        "    return rt\n"
        "def main(args):\n"
        "    args.nprocs = torch.cuda.device_count()\n"
        "    dist.init_process_group('nccl', timeout=None)\n"
        "    torch.cuda.set_device(int(os.environ['LOCAL_RANK']))\n"
        "    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2))\n"
        "    print(reduce_mean(torch.ones(1), args.nprocs))\n"
        "main(None)\n"
    )
    report = check_source(source, JobSpec(), "train.py")
    (found,) = [f for f in report.findings if f.rule == "rank_not_from_env"]
    assert found.line == 8 and "2 times the mean" in found.what
    assert "rank_not_from_env" not in [
        f.rule for f in check_source(source, JobSpec(nodes=1)).findings
    ]
    world = source.replace("torch.cuda.device_count()", "dist.get_world_size()")
    assert "rank_not_from_env" not in [f.rule for f in check_source(world, JobSpec()).findings]


def test_a_deepspeed_config_the_command_names_is_checked_under_any_plan(tmp_path):
    """`--ds_config cfg.json` read by a parser whose namespace a function returns, handed to
    `deepspeed.initialize(config_params=...)` under a plain PyTorch plan."""
    (tmp_path / "cfg.json").write_text(
        '{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 8\n}\n'
    )
    (tmp_path / "train.py").write_text(
        "import argparse, deepspeed, torch\n"
        "def init_args():\n"
        "    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--ds_config', default=None)\n"
        "    args, _ = p.parse_known_args()\n"
        "    return args\n"
        "def train(model, ds_config=None):\n"
        "    engine, *_ = deepspeed.initialize(model=model, config_params=ds_config)\n"
        "config = init_args()\n"
        "deepspeed.init_distributed()\n"
        "train(torch.nn.Linear(2, 2), ds_config=config.ds_config)\n"
    )
    plan = {"launch": "per_node", "script": "train.py"}
    report = check_file(tmp_path / "train.py", JobSpec(**plan, args=["--ds_config", "cfg.json"]))
    (batch,) = [f for f in report.findings if f.rule == "batch_not_divisible"]
    assert (batch.file, batch.line) == ("cfg.json", 2) and "over the plan's 16 ranks" in batch.what
    fits = check_file(
        tmp_path / "train.py",
        JobSpec(**plan, nodes=1, gpus_per_node=4, args=["--ds_config", "cfg.json"]),
    )
    assert "batch_not_divisible" not in [f.rule for f in fits.findings]


TF_WRITES = """import json, os, sys
import tensorflow as tf

def start_server():
    server = tf.distribute.Server(tf.train.ClusterSpec({}), start=True)
    server.join()

task = {"type": "worker", "index": TASK}
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["localhost:3000"]}, "task": task})
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
if resolver.task_type in ("worker", "ps"):
    start_server()
else:
    strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
"""


def test_a_task_the_script_writes_into_tf_config_from_argv_is_the_same_on_every_node():
    plan = {"framework": "tensorflow", "launch": "per_node", "parameter_servers": 1}
    report = check_source(TF_WRITES.replace("TASK", "int(sys.argv[1])"), JobSpec(**plan))
    found = {(f.rule, f.line) for f in report.findings}
    assert ("tf_task_from_flags", 8) in found and ("tf_config_overwritten", 9) in found
    assert "sys.argv" in next(f.what for f in report.findings if f.rule == "tf_task_from_flags")
    # the coordinator's branch: workers and ps join a server in a function of the script
    assert ("ps_coordinator_on_missing_chief", 11) in found
    from_env = TF_WRITES.replace("TASK", "int(os.environ['TASK_INDEX'])")
    rules = [f.rule for f in check_source(from_env, JobSpec(**plan)).findings]
    assert "tf_task_from_flags" not in rules and "tf_config_overwritten" in rules


def test_a_list_shuffled_per_process_then_cut_by_rank_gives_overlapping_shares():
    body = (
        "import random\n"
        "{seed}"
        "files = [f'part-{{i}}' for i in range(64)]\n"
        "random.shuffle(files)\n"
        "mine = files[rank::16]\n"
    )
    unseeded = findings(body.format(seed=""))
    assert unseeded == [("seed_per_process", AT + 2)]
    assert findings(body.format(seed="random.seed(1234 + rank)\n")) == [
        ("seed_per_process", AT + 3)
    ]
    assert findings(body.format(seed="random.seed(1234)\n")) == []
    not_cut = body.format(seed="").replace("files[rank::16]", "files[:4]")
    assert findings(not_cut) == []


def test_a_split_seeded_by_its_librarys_own_argument_or_not_shuffled_is_right():
    """Hugging Face datasets' `train_test_split(seed=42)`, scikit-learn's `random_state=`, a
    split in order (`shuffle=False`)."""
    for how in ("seed=42", "random_state=0", "shuffle=False"):
        body = f"data = load()\ntrain, test = data.train_test_split(test_size=0.1, {how})\n"
        assert findings(body) == [], how
    assert findings("data = load()\nparts = data.train_test_split(test_size=0.1)\n") == [
        ("seed_per_process", AT + 1)
    ]
