"""The CLI without a UI: what a user types and what they read back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.invariants import check_plan
from tui.cli import CliError, apply_sets, main
from tui.core.spec import JobSpec
from tui.planning.plan import plan

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None, env: dict | None = None):
    """The real entry point in a fresh interpreter, output piped (plain text)."""
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=60,
    )


def test_preview_shows_the_summary_the_command_and_why():
    out = run("preview", "--preset", "pytorch-torchrun")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("PyTorch DDP · per-node · 2 nodes × 8 GPUs on Standard_ND96asr_v4")
    assert "WORLD_SIZE = 2 nodes × 8 processes per node = 16." in out.stdout
    assert "torchrun --nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK" in out.stdout
    # each node's command, its values filled in, after the export that puts the stack dumper first
    assert "torchrun --nnodes 2 --nproc_per_node 8 --node_rank 1 " in out.stdout
    assert 'node 1: export PYTHONPATH="${{inputs.dtrain_tui}}' in out.stdout
    assert "\x1b[" not in out.stdout  # piped output is plain


def test_preview_env_lists_every_rank_with_who_sets_each_var():
    out = run(
        "preview",
        "--preset",
        "horovod",
        "--show",
        "env",
        "--target",
        "local",
        "--set",
        "sku=",
        "--set",
        "gpus_per_node=2",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("rank ") >= 4
    assert "OMPI_COMM_WORLD_RANK" in out.stdout and "Open MPI" in out.stdout
    assert "AZ_BATCH_MASTER_NODE       127.0.0.1:" in out.stdout
    assert "Open MPI reports OMPI_COMM_WORLD_LOCAL_RANK 0..3" in out.stdout


def test_preview_json_is_the_whole_plan(capsys):
    assert main(["preview", "--preset", "tensorflow-ps", "--show", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["job"]["resources"]["instance_count"] == 3
    assert [r["role"] for r in data["ranks"]] == ["worker", "worker", "ps"]


def test_set_changes_fields_and_env(capsys):
    assert (
        main(
            [
                "preview",
                "--show",
                "yaml",
                "--set",
                "nodes=4",
                "--set",
                "env.NCCL_DEBUG=INFO",
                "--set",
                "args=--name 'my run'",
                "--set",
                "framework=deepspeed",
                "--set",
                "zero_stage=3",
            ]
        )
        == 0
    )
    job = yaml.safe_load(capsys.readouterr().out.split("Job YAML\n", 1)[1])
    assert job["resources"]["instance_count"] == 4
    assert job["environment_variables"]["NCCL_DEBUG"] == "INFO"
    # ZeRO stage 3 goes into the generated ds_config.json, which the command names.
    assert job["command"].endswith(
        "; python train.py --name 'my run' --deepspeed --deepspeed_config ds_config.json"
    )


def test_export_writes_code_relative_to_the_output_file(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "jobs").mkdir()
    out = run("export", "--set", "code=src", "--format", "yaml", "-o", "jobs/job.yml", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("wrote jobs/job.yml (yaml: 2 nodes, WORLD_SIZE 16)")
    job = yaml.safe_load((tmp_path / "jobs/job.yml").read_text())
    assert job["code"] == "../src"
    from azure.ai.ml import load_job

    assert load_job(tmp_path / "jobs/job.yml").resources.instance_count == 2


def test_export_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "job.yml"
    target.write_text("mine")
    assert main(["export", "-o", str(target)]) == 2
    assert target.read_text() == "mine"
    assert main(["export", "-o", str(target), "--force"]) == 0
    assert "distribution" in target.read_text()


def test_export_sdk_and_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the DeepSpeed preset's code folder is "."
    # The preset's own config left out: dtrain-tui builds one, the export writes it.
    generated = ["--set", "code=.", "--set", "deepspeed_config="]
    argv = ["export", "--preset", "deepspeed", *generated, "--format", "sdk"]
    assert main([*argv, "-o", str(tmp_path / "job.py")]) == 0
    code = (tmp_path / "job.py").read_text()
    assert "PyTorchDistribution(process_count_per_instance=8)" in code
    compile(code, "job.py", "exec")
    assert (tmp_path / "ds_config.json").is_file()  # the config its command names
    assert main(["export", "--format", "json", "-o", str(tmp_path / "plan.json")]) == 0
    assert len(json.loads((tmp_path / "plan.json").read_text())["ranks"]) == 16


def test_an_exported_job_opens_again_with_job(tmp_path, capsys):
    path = tmp_path / "job.yml"
    assert main(["export", "--preset", "pytorch-torchrun", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["preview", "--job", str(path), "--show", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["spec"]["launch"], data["world_size"]) == ("per_node", 16)


def test_presets_list_and_show():
    out = run("presets")
    assert out.returncode == 0
    names = {line.split()[0] for line in out.stdout.splitlines()[1:] if line.strip()}
    assert {
        "pytorch-ddp",
        "pytorch-torchrun",
        "lightning",
        "huggingface",
        "deepspeed",
        "tensorflow-mwms",
        "tensorflow-ps",
        "horovod",
    } <= names
    show = run("presets", "show", "tensorflow-ps")
    assert "parameter server" in show.stdout and "TF_CONFIG" in show.stdout


def test_a_broken_user_preset_is_reported_not_fatal(tmp_path):
    presets = tmp_path / "config" / "presets"
    presets.mkdir(parents=True)
    (presets / "broken.yaml").write_text("spec: {nodes: 0}\n")
    (presets / "garbled.yaml").write_text("spec: [\n")
    out = run("presets", env={"DTRAIN_TUI_HOME": str(tmp_path)})
    assert out.returncode == 0
    assert "pytorch-ddp" in out.stdout
    assert "warning: preset broken: nodes: must be at least 1" in out.stderr
    assert "warning: preset garbled" in out.stderr
    used = run("preview", "--preset", "broken", env={"DTRAIN_TUI_HOME": str(tmp_path)})
    assert used.returncode == 2
    assert (
        used.stderr.strip() == "dtrain-tui: error: preset broken: nodes: must be at least 1, "
        "got 0; a job runs on one node or more"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["preview", "--set", "nodes=0"], "--set nodes: must be at least 1"),
        (["preview", "--set", "gpus_per_node=9"], "Standard_ND96asr_v4 has 8 GPUs per node"),
        (["preview", "--set", "colour=red"], "--set colour: unknown key"),
        (["preview", "--set", "nodes"], "expected KEY=VALUE"),
        (["preview", "--set", "env.9X=1"], "env.9X: '9X' is not a valid variable name"),
        (["preview", "--set", "args=--name 'oops"], "close the quote"),
        (
            ["preview", "--preset", "nope"],
            "preset 'nope' not found; known presets: cluster-check, deepspeed",
        ),
        (["preview", "--job", "missing.yml"], "missing.yml: cannot read it"),
        (["preview", "--show", "everything"], "invalid choice: 'everything'"),
        (["preview", "--framework", "horovod"], "--framework: only with --job"),
        (["launch"], "invalid choice: 'launch'"),
        (["export"], "the following arguments are required: -o/--output"),
    ],
)
def test_bad_input_exits_2_with_one_readable_line(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dtrain-tui: error: ")
    assert message in err
    assert "Traceback" not in err


@settings(max_examples=int(os.environ.get("DTRAIN_FUZZ_EXAMPLES", "200")), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "framework",
                    "launch",
                    "nodes",
                    "gpus_per_node",
                    "sku",
                    "compute",
                    "script",
                    "args",
                    "env.X",
                    "env.",
                    "shm_size",
                    "parameter_servers",
                    "zero_stage",
                    "experiment",
                    "bogus",
                    "",
                ]
            ),
            st.one_of(
                st.text(max_size=10),
                st.integers(-2, 20).map(str),
                st.sampled_from(["tensorflow", "per_node", "horovod", "16g", "Standard_NC24r"]),
            ),
        ),
        max_size=5,
    )
)
def test_any_set_gives_a_plan_or_a_clear_message(pairs):
    try:
        spec = apply_sets(JobSpec(), [f"{k}={v}" for k, v in pairs])
    except CliError as err:
        assert str(err).strip() and "\n" not in str(err)
        return
    check_plan(plan(spec))
