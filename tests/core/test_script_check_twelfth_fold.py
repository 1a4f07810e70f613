"""What the fourteenth fresh set (2026-11-28n, folded into the corpus) taught the script check:
a Trainer that runs DeepSpeed on two nodes or more saves each checkpoint as every rank's part
into `output_dir`; on a node's own disk no node holds a whole one. Run on the corpus script
whose label it met (an older dev item), as the plan gives it and with the fix the finding
names; and a CPU plan (truth.yaml's `gpus: false`) is checked as ranks with no GPU."""

from __future__ import annotations

from tests.core.script_corpus import cases
from tui.core.spec import JobSpec
from tui.planning.script_check import check_file

ALPACA = "hf_deepspeed_alpaca_lora/src/train_alpaca_lora.py"


def _findings(file: str, **changes: object) -> list[tuple[str, int | None]]:
    case = next(c for c in cases() if c.file == file)
    plan = {**case.plan, **changes}
    spec = JobSpec(**{**plan, "script": case.script})
    report = check_file(case.folder / case.script, spec, case.gpus, case.folder)
    return [(f.rule, f.line) for f in report.findings]


def _args(file: str, flag: str, value: str) -> list[str]:
    args = list(next(c for c in cases() if c.file == file).plan["args"])
    args[args.index(flag) + 1] = value
    return args


def test_a_deepspeed_trainer_saving_into_a_node_local_folder_scatters_its_checkpoints():
    # justinphan3110/deepspeed_lora: --deepspeed configs/ds_zero1.json --output_dir out/lora/…
    assert ("checkpoint_node_local", 172) in _findings(ALPACA)
    shared = _args(ALPACA, "--output_dir", "outputs/lora/llama_alpaca_lora_7b")
    assert "checkpoint_node_local" not in {r for r, _ in _findings(ALPACA, args=shared)}
    no_saves = _args(ALPACA, "--save_strategy", "no")
    assert "checkpoint_node_local" not in {r for r, _ in _findings(ALPACA, args=no_saves)}
    one_node = _findings(ALPACA, nodes=1)
    assert "checkpoint_node_local" not in {r for r, _ in one_node}


def test_a_cpu_plan_is_checked_as_ranks_without_a_gpu():
    # GoogleCloudPlatform/vertex-ai-samples' gloo MNIST on 4 CPU replicas (2026-11-28n)
    cpu = next(c for c in cases() if c.file == "pytorch_vertex_ddp_mnist_gloo.py")
    assert cpu.gpus is False and cpu.plan["gpus_per_node"] == 1
    found = {r for r, _ in _findings(cpu.file)}
    assert "device_not_local_rank" not in found  # no GPU to choose
