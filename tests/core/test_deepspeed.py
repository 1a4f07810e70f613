"""The DeepSpeed config follows the plan, and a user's config is checked with the numbers."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tui.cli import main
from tui.core.spec import JobSpec
from tui.frameworks.deepspeed_config import check_config, precision_for, read_config
from tui.planning.plan import plan
from tui.planning.presets import get_preset

# The shipped preset runs its example with the example's own ds_config.json; these tests ask for
# the config dtrain-tui builds from the plan instead.
GENERATED = ["--set", "deepspeed_config=", "--set", "zero_stage=2"]


def _preview_config(capsys, *sets: str) -> dict:
    argv = ["preview", "--preset", "deepspeed", "--show", "deepspeed", *GENERATED]
    for s in sets:
        argv += ["--set", s]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _batch_rule_holds(config: dict, world_size: int) -> bool:
    return config["train_batch_size"] == (
        config["train_micro_batch_size_per_gpu"]
        * config["gradient_accumulation_steps"]
        * world_size
    )


def test_preview_prints_a_config_whose_batch_arithmetic_holds_and_follows_nodes(capsys):
    shipped = get_preset("deepspeed").spec.with_changes(deepspeed_config=None, zero_stage=2)
    config = _preview_config(capsys)
    world = shipped.nodes * shipped.gpus_per_node
    assert _batch_rule_holds(config, world)
    assert config["zero_optimization"]["stage"] == shipped.zero_stage

    bigger = _preview_config(capsys, f"nodes={shipped.nodes + 3}", "ds_grad_accum=4")
    assert bigger["train_batch_size"] != config["train_batch_size"]
    assert _batch_rule_holds(bigger, (shipped.nodes + 3) * shipped.gpus_per_node)


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.integers(1, 64),
    gpus=st.integers(1, 8),
    micro=st.integers(1, 64),
    accumulation=st.integers(1, 32),
    stage=st.sampled_from([None, 0, 1, 2, 3]),
    offload=st.sampled_from(["none", "cpu", "nvme"]),
)
def test_the_generated_config_always_satisfies_deepspeeds_batch_check(
    nodes, gpus, micro, accumulation, stage, offload
):
    spec = JobSpec(
        framework="deepspeed",
        nodes=nodes,
        gpus_per_node=gpus,
        zero_stage=stage,
        ds_micro_batch=micro,
        ds_grad_accum=accumulation,
        ds_offload=offload,
    )
    p = plan(spec)
    assert p.config_file is not None
    assert _batch_rule_holds(p.config_file.data, p.world_size)
    assert check_config(p.config_file.data, p.world_size) == []
    assert "--deepspeed_config ds_config.json" in p.command


@pytest.mark.parametrize(
    ("sku", "precision"),
    [
        ("Standard_ND96asr_v4", "bf16"),  # A100
        ("Standard_ND96isr_H100_v5", "bf16"),  # H100
        ("Standard_ND40rs_v2", "fp16"),  # V100: no bfloat16
    ],
)
def test_precision_follows_the_gpu_and_says_why(sku, precision):
    spec = JobSpec(framework="deepspeed", sku=sku, gpus_per_node=1)
    p = plan(spec)
    chosen = precision_for(spec, p.sku)
    assert chosen.name == precision
    assert p.sku.gpu_model in chosen.why
    assert p.config_file.data[precision]["enabled"] is True
    other = "fp16" if precision == "bf16" else "bf16"
    assert other not in p.config_file.data
    assert any(f"Precision {precision}" in e for e in p.explanations)


def test_a_users_config_that_breaks_the_arithmetic_is_reported_with_the_numbers(tmp_path, capsys):
    code = tmp_path / "src"
    code.mkdir()
    (code / "my_ds.json").write_text(
        json.dumps(
            {
                "train_batch_size": 64,
                "train_micro_batch_size_per_gpu": 4,
                "gradient_accumulation_steps": 1,
            }
        )
    )
    argv = ["preview", "--preset", "deepspeed", "--set", f"code={code}"]
    argv += ["--set", "zero_stage=", "--set", "deepspeed_config=my_ds.json"]
    argv += ["--set", "nodes=2", "--set", "gpus_per_node=8"]
    assert main(argv) == 0
    out = capsys.readouterr()
    assert "--deepspeed_config my_ds.json" in out.out
    assert "deepspeed_config" not in out.err  # 4 × 1 × (2 × 8) = 64: this one holds
    # At 4 nodes it no longer does:
    argv[argv.index("nodes=2")] = "nodes=4"
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "train_batch_size is 64 but micro batch 4 × accumulation 1 × WORLD_SIZE 32 = 128" in err
    # never rewritten:
    assert json.loads((code / "my_ds.json").read_text())["train_batch_size"] == 64


def test_export_writes_the_config_the_command_reads_and_keeps_a_different_one(tmp_path, capsys):
    code = tmp_path / "src"
    code.mkdir()
    out = tmp_path / "job.yml"
    argv = ["export", "--preset", "deepspeed", *GENERATED, "--set", f"code={code}", "-o", str(out)]
    assert main(argv) == 0
    job = yaml.safe_load(out.read_text())
    assert "--deepspeed_config ds_config.json" in job["command"]
    written = read_config(code / "ds_config.json")
    assert _batch_rule_holds(written, job["resources"]["instance_count"] * 8)

    # A different config in the way is kept, and the job file is not written either.
    (code / "ds_config.json").write_text('{"train_batch_size": 7}\n')
    other = tmp_path / "job2.yml"
    assert main([*argv[:-2], "--set", "nodes=1", "-o", str(other)]) == 2
    assert "differs from the config built for this job" in capsys.readouterr().err
    assert (code / "ds_config.json").read_text() == '{"train_batch_size": 7}\n'
    assert not other.exists()


def test_exported_yaml_and_config_load_in_azure_ai_ml(tmp_path):
    from azure.ai.ml import load_job

    code = tmp_path / "src"
    code.mkdir()
    (code / "train.py").write_text("print('hi')\n")
    out = tmp_path / "out" / "job.yml"
    out.parent.mkdir()
    argv = ["export", "--preset", "deepspeed", *GENERATED, "--set", f"code={code}", "-o", str(out)]
    assert main(argv) == 0
    job = load_job(out)
    assert job.command.endswith("--deepspeed --deepspeed_config ds_config.json")
    assert (code / "ds_config.json").is_file()
    assert job.resources.instance_count * job.distribution.process_count_per_instance == (
        read_config(code / "ds_config.json")["train_batch_size"]
        // read_config(code / "ds_config.json")["train_micro_batch_size_per_gpu"]
    )


def test_show_deepspeed_on_another_framework_is_one_line_exit_2(capsys):
    assert main(["preview", "--preset", "pytorch-ddp", "--show", "deepspeed"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "choose deepspeed" in err[0]


def test_a_config_named_in_the_scripts_arguments_is_the_one_used_and_checked(tmp_path, capsys):
    """`--deepspeed_config my_ds.json` in the script's own arguments (as a repository's README
    writes it): the command is the user's as written, with no second config that argparse would
    take over the user's (nor a bare `--deepspeed`, which argparse reads as an abbreviation of a
    script's own --deepspeed_config), none is generated, and the user's file is checked at the
    plan's world size."""
    code = tmp_path / "src"
    code.mkdir()
    batch = {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4}
    (code / "my_ds.json").write_text(json.dumps({**batch, "gradient_accumulation_steps": 1}))
    argv = ["preview", "--preset", "deepspeed", "--set", f"code={code}", *GENERATED]
    argv += ["--set", "zero_stage=", "--set", "args=--deepspeed_config my_ds.json"]
    argv += ["--set", "nodes=4", "--set", "gpus_per_node=8"]
    assert main(argv) == 0
    out = capsys.readouterr()
    command = next(line for line in out.out.splitlines() if "train_deepspeed.py" in line)
    assert command.count("--deepspeed_config") == 1 and "ds_config.json" not in command
    assert command.rstrip().endswith("--deepspeed_config my_ds.json")  # nothing appended
    assert "micro batch 4 × accumulation 1 × WORLD_SIZE 32 = 128" in out.err
    assert "train_batch_size = micro batch" not in out.out  # no config built from the plan
