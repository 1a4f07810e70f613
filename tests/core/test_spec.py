"""The rules a user meets when a choice does not make sense: each names the field and the fix."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tui.core.answers import error_field, friendly, parse_args
from tui.core.spec import JobSpec


def problem(**fields) -> tuple[str, str]:
    with pytest.raises(ValidationError) as info:
        JobSpec().with_changes(**fields)
    return error_field(info.value), friendly(info.value)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"nodes": 0}, "nodes", "at least 1"),
        ({"nodes": "two"}, "nodes", "whole number"),
        ({"gpus_per_node": 0}, "gpus_per_node", "at least 1"),
        ({"gpus_per_node": 16}, "gpus_per_node", "Standard_ND96asr_v4 has 8 GPUs per node"),
        ({"sku": "Standard_NC24ads_A100_v4", "gpus_per_node": 2}, "gpus_per_node", "1 GPU per"),
        ({"framework": "tensorflow"}, "launch", "choose per-node launch"),
        ({"framework": "horovod", "launch": "per_node"}, "launch", "choose per-process launch"),
        ({"env": {"1BAD": "x"}}, "env.1BAD", "not a valid variable name"),
        ({"env": {"MY-VAR": "x"}}, "env.MY-VAR", "letters, digits and _"),
        ({"shm_size": "16GB"}, "shm_size", "like 16g"),
        ({"shm_size": "lots"}, "shm_size", "unit b, k, m or g"),
        ({"parameter_servers": 1}, "parameter_servers", "only TensorFlow"),
        ({"zero_stage": 2}, "zero_stage", "choose the deepspeed framework"),
        ({"framework": "deepspeed", "zero_stage": 4}, "zero_stage", "0, 1, 2 or 3"),
        ({"framework": "wandb"}, "framework", "is not one of"),
        ({"script": " "}, "script", "name the file"),
        ({"compute": "gpu\ncluster"}, "compute", "not a compute name"),
        ({"colour": "red"}, "colour", "unknown field"),
    ],
)
def test_each_rule_names_its_field_and_the_fix(fields, field, words):
    where, message = problem(**fields)
    assert where == field
    assert message.startswith(f"{field}: ")
    assert words in message


def test_a_sku_the_table_does_not_know_takes_the_stated_gpu_count():
    spec = JobSpec(sku="Standard_ND999_future", gpus_per_node=12)
    assert spec.gpus_per_node == 12


def test_sku_names_match_case_insensitively():
    with pytest.raises(ValidationError):
        JobSpec(sku="standard_nd96asr_v4", gpus_per_node=9)


def test_with_changes_validates_where_model_copy_would_not():
    spec = JobSpec()
    with pytest.raises(ValidationError):
        spec.with_changes(nodes=-5)
    assert spec.with_changes(nodes="4").nodes == 4


def test_spec_is_frozen():
    with pytest.raises(ValidationError):
        JobSpec().nodes = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("typed", "received"),
    [
        ('--name "my run" --lr 0.1', ("--name", "my run", "--lr", "0.1")),
        ("--msg 'it''s'", ("--msg", "its")),
        ("--path $HOME/data", ("--path", "$HOME/data")),
        ("--cmd 'a; rm -rf /'", ("--cmd", "a; rm -rf /")),
    ],
)
def test_arguments_parse_like_a_shell(typed, received):
    assert parse_args(typed) == received


def test_unbalanced_quote_is_a_clear_message():
    with pytest.raises(ValueError, match=r"^args: .*close the quote"):
        parse_args('--name "my run')


@pytest.mark.parametrize(
    "arg", ["two words", "it's", 'say "hi"', "$HOME", "a;b", "`id`", "$(id)", "*", "x\ny", ""]
)
def test_script_arguments_reach_the_script_exactly_as_typed(arg, tmp_path):
    """Run the rendered command in a real shell and look at what the script received."""
    import json
    import subprocess
    import sys

    script = tmp_path / "show.py"
    script.write_text("import json, sys; print(json.dumps(sys.argv[1:]))")
    spec = JobSpec(script=str(script), args=("--x", arg))
    command = spec.script_command.replace(str(script), f"{sys.executable} {script}", 1)
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["--x", arg]


@pytest.mark.parametrize(
    ("start", "framework", "launch"),
    [
        (JobSpec(), "tensorflow", "per_node"),
        (JobSpec(launch="per_node"), "horovod", "per_process"),
        (JobSpec(launch="per_node"), "deepspeed", "per_node"),
        (
            JobSpec(framework="tensorflow", launch="per_node", parameter_servers=2),
            "pytorch",
            "per_node",
        ),
        (JobSpec(framework="deepspeed", zero_stage=3), "lightning", "per_process"),
    ],
)
def test_switching_framework_keeps_the_spec_valid(start, framework, launch):
    from tui.core.spec import switch_framework

    spec = switch_framework(start, framework)
    assert (spec.framework, spec.launch) == (framework, launch)
    assert spec.parameter_servers == 0 or framework == "tensorflow"
    assert spec.zero_stage is None or framework == "deepspeed"


@pytest.mark.parametrize(
    ("fields", "fix"),
    [
        # No listed size has more than 8 GPUs: the fix is more nodes, never a size not there.
        ({"gpus_per_node": 9}, "for 18 GPUs use more nodes: 3 nodes × 8"),
        ({"nodes": 1, "gpus_per_node": 9}, "for 9 GPUs use more nodes: 2 nodes × 8"),
        # A one-GPU size asked for 2: a listed size with 2 or more exists, and is named.
        ({"sku": "Standard_NC24ads_A100_v4", "gpus_per_node": 2}, "choose a size with 2 or more"),
    ],
)
def test_too_many_gpus_for_the_size_offers_a_fix_that_exists(fields, fix):
    _, message = problem(**fields)
    assert "or fewer" in message and fix in message
    assert "larger SKU" not in message
