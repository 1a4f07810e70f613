"""The script check on real training scripts (tests/core/data/scripts, see SOURCES.md): each
plan's expected findings, by what they are about, and nothing else (no false positives)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.script_corpus import ROUND_THREE
from tui.core.spec import JobSpec
from tui.planning.presets import samples_dir
from tui.planning.script_check import ScriptProblem, check_source

SCRIPTS = Path(__file__).parent / "data" / "scripts"
TF = {"framework": "tensorflow", "launch": "per_node"}

# file, the plan, what each finding must be about (in order); () means clean.
TABLE = [
    ("pytorch_cifar_ddp.py", {}, ["no timeout"]),
    ("pytorch_distributed_training.py", {}, ["no timeout"]),
    ("pytorch_e2e_image.py", {}, ["no timeout"]),
    ("deepspeed_training.py", {"framework": "deepspeed"}, []),
    ("tf_mnist_distributed.py", TF, []),
    ("tf_mnist_distributed.py", TF | {"parameter_servers": 1}, ["ParameterServerStrategy"]),
    ("horovod_tf_mnist.py", {"framework": "horovod"}, []),
    ("lightning_multi_node.py", {"framework": "lightning"}, ["--trainer.num_nodes"]),
    ("single_pytorch_iris.py", {}, ["no process group", "ranks"]),
    ("single_tf_mnist.py", TF, ["no tf.distribute strategy"]),
]


@pytest.mark.parametrize(("name", "fields", "expected"), TABLE)
def test_real_scripts_get_exactly_the_expected_findings(name, fields, expected):
    report = check_source((SCRIPTS / name).read_text(encoding="utf-8"), JobSpec(**fields), name)
    # the table was written before issue 38's ids, as the corpus cases without `vocabulary: 3`
    got = [f.what for f in report.findings if f.rule not in ROUND_THREE]
    assert len(got) == len(expected), got
    for what, about in zip(got, expected, strict=True):
        assert about in what
    for f in report.findings:
        assert f.fix  # every finding says how to fix it


def test_a_cpu_rehearsal_flags_a_fixed_nccl_backend_with_its_line():
    source = (SCRIPTS / "pytorch_cifar_ddp.py").read_text(encoding="utf-8")
    report = check_source(source, JobSpec(), gpus=False)
    (nccl,) = [f for f in report.findings if "nccl" in f.what]
    assert nccl.line == 132 and "gloo" in nccl.fix


def test_hugging_face_trainer_needs_no_manual_setup_and_the_sample_is_clean():
    trainer = "from transformers import Trainer\nTrainer(model=m, args=a).train()\n"
    report = check_source(trainer, JobSpec(framework="huggingface", launch="per_node"))
    assert report.clean and "no process group" in report.notes[0]
    sample = (samples_dir() / "train_ddp.py").read_text(encoding="utf-8")
    assert check_source(sample, JobSpec(), gpus=False).clean


def test_not_python_is_a_problem_naming_the_line():
    with pytest.raises(ScriptProblem, match="line 2"):
        check_source("x = 1\ndef (:\n", JobSpec(), "train.py")


def test_the_check_command_exits_0_clean_1_with_findings_2_on_bad_input(tmp_path: Path):
    def check(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui", "check", *args],
            capture_output=True, text=True, cwd=tmp_path, timeout=60,
        )  # fmt: skip

    assert check("--preset", "pytorch-ddp").returncode == 0
    found = check("--set", f"code={SCRIPTS}", "--set", "script=single_tf_mnist.py", "--set",
                  "framework=tensorflow", "--set", "launch=per_node")  # fmt: skip
    assert found.returncode == 1 and "MultiWorkerMirroredStrategy" in found.stdout
    missing = check("--set", "script=nope.py")
    assert missing.returncode == 2 and missing.stderr.startswith("dtrain-tui: error: check:")


def test_check_takes_the_script_as_people_type_it(tmp_path: Path):
    """`check train.py` and `check FOLDER/train.py` (the folder is the code folder, its helper
    modules read); `--json` as with --set script=."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "train.py").write_text("import helper\nhelper.setup()\n", encoding="utf-8")
    (folder / "helper.py").write_text(
        "import torch.distributed as dist\ndef setup():\n    dist.init_process_group('nccl')\n",
        encoding="utf-8",
    )

    def check(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui", "check", *args],
            capture_output=True, text=True, cwd=cwd, timeout=60,
        )  # fmt: skip

    here = check("train.py", "--json", cwd=folder)
    typed = check("src/train.py", "--json")
    assert here.returncode == typed.returncode == 1, here.stderr + typed.stderr
    rules = {f["rule"] for f in json.loads(typed.stdout)}
    assert "no_process_group" not in rules  # src/helper.py was read: src is the code folder
    assert rules == {f["rule"] for f in json.loads(here.stdout)}
    assert all(f["file"].startswith("src/") for f in json.loads(typed.stdout))
    missing = check("src/nope.py")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "nope.py" in missing.stderr and "Traceback" not in missing.stderr
