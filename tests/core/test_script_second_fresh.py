"""What the second fresh set (2026-11-27b) taught the script check (issue 38): a branch only
Windows takes, files each process names for itself, a rank test behind a function, arguments
made only on some machines, Keras data named per rank, TF1's parameter servers, a toy dataset's
size, the device a GPU machine picks, and a collective save only one rank reaches."""

from __future__ import annotations

from tui.core.spec import JobSpec
from tui.planning.script_check import check_source

HEAD = "import os, platform, datetime, torch\nimport torch.distributed as dist\n"
HEAD += "local_rank = int(os.environ['LOCAL_RANK'])\ntorch.cuda.set_device(local_rank)\n"
AT = HEAD.count("\n") + 1
"""The line the body of each script starts on."""


def rules(body: str, head: str = HEAD, **plan: object) -> list[tuple[str, int | None]]:
    report = check_source(head + body, JobSpec(**plan), "train.py")
    return [(f.rule, f.line) for f in report.findings if f.rule != "no_init_timeout"]


def named(found: list[tuple[str, int | None]], rule: str) -> list[int | None]:
    return [line for r, line in found if r == rule]


def test_a_backend_only_windows_takes_is_not_held_against_linux_nodes():
    windows = 'if platform.system() == "Windows":\n    dist.init_process_group("gloo")\n'
    linux = 'else:\n    dist.init_process_group("nccl")\n'
    assert named(rules(windows + linux), "gloo_on_gpu") == []
    assert named(rules('dist.init_process_group("gloo")\n'), "gloo_on_gpu") == [AT]


def test_a_file_named_from_the_rank_through_parameters_is_each_process_own():
    body = (
        "dist.init_process_group('nccl')\n"
        "def writer(name):\n    return open(name, 'w')\n"
        "def make(folder, suffix):\n    return writer(os.path.join(folder, 'log%s.txt' % suffix))\n"
        "suffix = '-rank%03i' % dist.get_rank()\n"
        "make('logs', suffix)\n"
    )
    assert named(rules(body), "unguarded_write") == []
    shared = body.replace("'-rank%03i' % dist.get_rank()", "''")
    assert named(rules(shared), "unguarded_write") == [AT + 2]


def test_a_folder_named_to_the_microsecond_is_each_process_own_one_to_the_second_is_not():
    body = (
        "dist.init_process_group('nccl')\n"
        "folder = datetime.datetime.now().strftime('run-%Y%m%d-%H%M%S-%f')\n"
        "torch.save({}, os.path.join(folder, 'state.pt'))\n"
    )
    assert named(rules(body), "unguarded_write") == []
    seconds = body.replace("-%f", "")
    assert named(rules(seconds), "unguarded_write") == [AT + 2]


def test_a_function_that_returns_a_rank_test_guards_like_the_test():
    body = (
        "dist.init_process_group('nccl')\n"
        "def is_root_worker():\n    return dist.get_rank() == 0\n"
        "def save(path):\n    if not is_root_worker():\n        return\n"
        "    torch.save({}, path)\n"
        "save('model.pt')\n"
    )
    assert named(rules(body), "unguarded_write") == []
    unguarded = body.replace("    if not is_root_worker():\n        return\n", "")
    assert named(rules(unguarded), "unguarded_write") == [AT + 4]


def test_an_argument_made_only_on_some_machines_does_not_reject_the_command():
    body = (
        "import argparse\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--cfg')\n"
        "if torch.__version__.startswith('1.'):\n"
        "    parser.add_argument('--local_rank', type=int, required=True)\n"
        "args = parser.parse_args()\ndist.init_process_group('nccl')\n"
    )
    assert named(rules(body, args=("--cfg", "a.yaml")), "argv_rejected") == []
    always = body.replace("if torch.__version__.startswith('1.'):\n    ", "")
    assert named(rules(always, args=("--cfg", "a.yaml")), "argv_rejected") != []


def test_tf1_parameter_servers_placed_with_replica_device_setter_use_the_plan_servers():
    body = (
        "import json, tensorflow as tf\n"
        "task = json.loads(os.environ['TF_CONFIG'])['task']\n"
        "with tf.device(tf.train.replica_device_setter(ps_device='/job:ps/cpu:0')):\n"
        "    x = tf.Variable(1.0)\n"
    )
    found = rules(
        body, head="import os\n", framework="tensorflow", launch="per_node", parameter_servers=1
    )
    assert named(found, "tf_ps_strategy_missing") == []
    plain = body.replace("tf.train.replica_device_setter(ps_device='/job:ps/cpu:0')", "'/cpu:0'")
    found = rules(
        plain, head="import os\n", framework="tensorflow", launch="per_node", parameter_servers=1
    )
    assert named(found, "tf_ps_strategy_missing") != []


TOY = (
    "from torch.utils.data import DataLoader, Dataset, DistributedSampler\n"
    "dist.init_process_group('nccl')\n"
    "class Toy(Dataset):\n"
    "    def __init__(self, x, y):\n        self.features = x\n        self.labels = y\n"
    "    def __getitem__(self, i):\n        return self.features[i], self.labels[i]\n"
    "    def __len__(self):\n        return self.labels.shape[0]\n"
    "x = torch.tensor([[1.0], [2.0], [3.0], [4.0], [5.0]])\ny = torch.tensor([0, 0, 1, 1, 1])\n"
    "data = Toy(x, y)\n"
    "loader = DataLoader(data, batch_size=2, drop_last=True, sampler=DistributedSampler(data))\n"
)


def test_a_toy_dataset_of_the_script_own_class_is_sized_against_the_plan_ranks():
    at = AT + TOY.count("\n") - 1
    assert named(rules(TOY), "zero_batches_per_rank") == [at]
    assert named(rules(TOY, nodes=1, gpus_per_node=2), "zero_batches_per_rank") == []


def test_cuda_when_available_is_gpu_0_on_a_gpu_plan():
    head = "import torch\nimport torch.distributed as dist\n"
    body = (
        "dist.init_process_group('nccl')\n"
        "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "net = torch.nn.Linear(2, 2)\nnet = net.to(device)\n"
    )
    assert named(rules(body, head=head), "device_not_local_rank") == [6]
    on_cpus = check_source(head + body, JobSpec(), "train.py", gpus=False)
    assert [f.rule for f in on_cpus.findings if f.rule == "device_not_local_rank"] == []


def test_an_engine_save_only_rank_0_reaches_is_a_hang_at_the_call_that_rank_0_makes():
    body = (
        "import deepspeed\ndist.init_process_group('nccl')\n"
        "engine, _, _, _ = deepspeed.initialize(model=torch.nn.Linear(2, 2))\n"
        "def save_model(path):\n    engine.save_checkpoint(path, client_state={})\n"
        "if dist.get_rank() == 0:\n    save_model('ckpt')\n"
    )
    assert named(rules(body), "collective_on_one_rank") == [AT + 6]
    everywhere = body.replace("if dist.get_rank() == 0:\n    save_model", "save_model")
    assert named(rules(everywhere), "collective_on_one_rank") == []


def test_keras_data_given_a_file_per_rank_is_no_race():
    head = "import horovod.tensorflow.keras as hvd\nfrom tensorflow import keras\nhvd.init()\n"
    per_rank = "data = keras.datasets.mnist.load_data('MNIST-data-%d' % hvd.rank())\n"
    found = rules(per_rank, head=head, framework="horovod")
    assert named(found, "download_race") == []
    shared = rules("data = keras.datasets.mnist.load_data()\n", head=head, framework="horovod")
    assert named(shared, "download_race") == [4]
