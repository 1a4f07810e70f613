"""What every preset (and the variants that take other paths through planning) shows and writes:
`preview --show all`, `export --format yaml|json|sdk` and `check`, for an Azure ML cluster and
for this machine. The files in `data/golden/` are the product's output before the framework
move (issue 22); `test_golden.py` asserts it stays byte-identical.

`python -m tests.core.golden` rewrites the files: only for an intended change, and say which in
the commit.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from tui.cli.render import print_plan
from tui.core.spec import JobSpec
from tui.planning.export import to_yaml, write_json
from tui.planning.plan import Target, plan
from tui.planning.presets import get_preset, samples_dir
from tui.planning.script_check import ScriptProblem, check_source
from tui.planning.sdk import to_python
from tui.planning.stacks_env import HELPER

GOLDEN = Path(__file__).parent / "data" / "golden"

# A fixed "this machine": ports and cores as a real local target would have them, so the files do
# not depend on which ports were free or how many cores the machine has.
LOCAL = Target("local", 29500, tuple(range(29501, 29541)), 4)

# Presets as shipped, and variants that take the other branches: per-node launchers, mpi,
# torchrun for Hugging Face, not distributed, a user's command, a generated DeepSpeed config.
CASES: dict[str, tuple[str, dict[str, object]]] = {
    "deepspeed": ("deepspeed", {}),
    "deepspeed-mpi": ("deepspeed", {"deepspeed_via": "mpi"}),
    "deepspeed-mpi-per-node": ("deepspeed", {"deepspeed_via": "mpi", "launch": "per_node"}),
    "deepspeed-generated": (
        "deepspeed",
        {"deepspeed_config": None, "zero_stage": 3, "ds_offload": "cpu", "nodes": 2},
    ),
    "horovod": ("horovod", {}),
    "huggingface": ("huggingface", {}),
    "huggingface-torchrun": ("huggingface", {"hf_launcher": "torchrun"}),
    "huggingface-per-process": ("huggingface", {"launch": "per_process"}),
    "lightning": ("lightning", {}),
    "lightning-per-node": ("lightning", {"launch": "per_node"}),
    "lightning-single": ("lightning", {"launch": "single"}),
    "pytorch-ddp": ("pytorch-ddp", {}),
    "pytorch-torchrun": ("pytorch-torchrun", {}),
    "pytorch-command": (
        "pytorch-ddp",
        {"launch": "per_node", "command": "torchrun --nproc_per_node 8 train_ddp.py"},
    ),
    "pytorch-one-node-env": ("pytorch-ddp", {"nodes": 1, "env": {"NCCL_DEBUG": "INFO"}}),
    "tensorflow-mwms": ("tensorflow-mwms", {}),
    "tensorflow-ps": ("tensorflow-ps", {}),
}


def spec_for(case: str) -> JobSpec:
    preset, changes = CASES[case]
    return get_preset(preset).spec.with_changes(**changes)


def output(case: str, target_name: str) -> str:
    """Everything the CLI shows and writes for one case, the samples folder written as {samples}
    and the stack dumper's folder as {injob}: the files do not depend on where the checkout is."""
    spec = spec_for(case)
    target = LOCAL if target_name == "local" else Target.for_spec("azureml", spec)
    p = plan(spec, target)
    parts: dict[str, str] = {}
    buffer = io.StringIO()
    print_plan(p, "all", Console(file=buffer, width=100, color_system=None, force_terminal=False))
    parts["preview --show all"] = buffer.getvalue()
    parts["export --format yaml"] = to_yaml(p)
    buffer = io.StringIO()
    write_json(p, buffer)
    parts["export --format json"] = buffer.getvalue()
    parts["export --format sdk"] = to_python(p)
    parts["check"] = _check(spec, gpus=target_name != "local")
    text = "".join(f"===== {title} =====\n{body.rstrip()}\n" for title, body in parts.items())
    return text.replace(str(samples_dir()), "{samples}").replace(str(HELPER.parent), "{injob}")


def _check(spec: JobSpec, gpus: bool) -> str:
    if spec.command is not None:
        return "(a full command: no script to check)"
    source = Path(spec.code or ".", spec.script).read_text(encoding="utf-8")
    try:
        report = check_source(source, spec, spec.script, gpus=gpus)
    except ScriptProblem as err:
        return f"problem: {err}"
    lines = [f"line {f.line}: {f.what}\n  fix: {f.fix}" for f in report.findings]
    lines += [f"ok: {note}" for note in report.notes]
    return "\n".join(lines)


def path(case: str, target_name: str) -> Path:
    return GOLDEN / f"{case}.{target_name}.txt"


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        for target_name in ("azureml", "local"):
            path(case, target_name).write_text(output(case, target_name), encoding="utf-8")
    print(f"wrote {len(CASES) * 2} files in {GOLDEN}")


if __name__ == "__main__":
    main()
