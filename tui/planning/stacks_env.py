"""The in-job helpers as part of the plan: the variables they need in every process, and why.

dtrain-tui's in-job helpers (`tui/injob/`, standard library only) reach each rank through
Python's `sitecustomize` hook: the plan puts their folder first on PYTHONPATH and says, in
DTRAIN_STACKS, after how many minutes in one place a rank prints its stacks by itself
(`JobSpec.stacks` = 0: no dumper), and in DTRAIN_GPU_SAMPLE every how many seconds local rank 0
of each node prints its GPUs' use (naming the node as its launcher does). The job's own
DTRAIN_GPU_SAMPLE wins (0: no sampler); with both off, nothing is added.

Where the module comes from: on this machine, the installed package's own folder (nothing is
copied; the shell's PYTHONPATH follows it). Azure ML jobs do not get it yet: nothing writes the
module into the code snapshot, and a job's PYTHONPATH there would replace the image's, so the
plan says so rather than promise a dumper that would not run.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tui.core.plan_types import EnvBuilder, EnvVar, LaunchPlan, Origin, RankPlan, Ranks
from tui.frameworks import registry

HELPER = Path(__file__).resolve().parents[1] / "injob" / "sitecustomize.py"
"""The module every rank imports at start (shipped in the wheel with `tui`)."""
ORIGIN = Origin("dtrain-tui", "command")
"""Who sets the dumper's variables: dtrain-tui itself, for its stack dumper."""
WHY = (
    "stack dumper (dtrain-tui): each rank imports dtrain-tui's sitecustomize.py at "
    "start (PYTHONPATH; a sitecustomize of yours runs after it), so `dtrain-tui stacks NAME` shows "
    "every rank's Python stack, and a rank stuck {minutes} min in one place prints its own "
    "(DTRAIN_STACKS). Off: stacks 0 on the Code step, or --set stacks=0."
)
GPU_SECONDS = 30
"""How often a node's GPU sampler reads its GPUs unless the job's env says otherwise."""
GPU_WHY = (
    "GPU sampler (dtrain-tui): local rank 0 of each node reads each GPU's use and memory every "
    "{seconds} s (NVML or nvidia-smi; where there is neither it stops without a word) and prints "
    "one `dtrain-tui gpus:` line to its log, shown beside the rank strip and left out of the log "
    "view (DTRAIN_GPU_SAMPLE). Off: --set env.DTRAIN_GPU_SAMPLE=0."
)


AZURE_NOTE = (
    "stack dumper and GPU sampler: on this machine only for now; on Azure ML a rank's stacks "
    "are what it prints itself (py-spy dump --pid in the job's terminal shows one), and its "
    "GPUs are in the job's monitoring tab."
)


def skip_names(plan: LaunchPlan) -> str:
    """The per-node launcher's program: it waits on its workers by design, so it is no rank."""
    launcher = registry.launcher(plan.launcher)
    names = [n for n in (launcher.tool, launcher.name) if n] if launcher else []
    return ",".join(dict.fromkeys(names))


def gpu_seconds(plan: LaunchPlan) -> float:
    """Seconds between a node's GPU samples: the job's own DTRAIN_GPU_SAMPLE, else 30; 0: off."""
    value = plan.spec.env.get("DTRAIN_GPU_SAMPLE", str(GPU_SECONDS))
    try:
        return max(0.0, float(value))
    except ValueError:
        return 0.0


def with_stacks(plan: LaunchPlan) -> LaunchPlan:
    """`plan` with the in-job helpers' variables in every node and rank, or as it was when the
    spec turns both off (or, on Azure ML, has no code folder to carry them)."""
    spec = plan.spec
    if spec.stacks <= 0 and gpu_seconds(plan) <= 0:
        return plan
    if plan.target.kind != "local":
        # Not yet carried to Azure ML: nothing writes the module into the code snapshot, and a
        # job's PYTHONPATH there would replace the image's. The plan promises only what runs.
        return dataclasses.replace(plan, explanations=(*plan.explanations, AZURE_NOTE))
    values = _values(plan)
    inner = plan.ranks

    def rank(index: int) -> RankPlan:
        made = inner[index]
        return dataclasses.replace(made, env=_added(made.env, values))

    nodes = tuple(dataclasses.replace(n, env=_added(n.env, values)) for n in plan.nodes)
    whys = [WHY.format(minutes=spec.stacks)] if spec.stacks > 0 else []
    if seconds := gpu_seconds(plan):
        whys.append(GPU_WHY.format(seconds=f"{seconds:g}"))
    return dataclasses.replace(
        plan, nodes=nodes, ranks=Ranks(len(inner), rank), explanations=(*plan.explanations, *whys)
    )


def _values(plan: LaunchPlan) -> dict[str, tuple[str, str]]:
    """Name → (value, note) of what the dumper needs."""
    path = str(HELPER.parent)
    yours = plan.spec.env.get("PYTHONPATH")
    values = {
        "PYTHONPATH": (
            f"{path}:{yours}" if yours else path,
            "dtrain-tui's in-job helpers first" + (", yours after it" if yours else ""),
        ),
    }
    if plan.spec.stacks > 0:
        values["DTRAIN_STACKS"] = (
            str(plan.spec.stacks),
            "minutes in one place before a rank prints its stacks",
        )
    if gpu_seconds(plan) and "DTRAIN_GPU_SAMPLE" not in plan.spec.env:
        values["DTRAIN_GPU_SAMPLE"] = (str(GPU_SECONDS), "seconds between a node's GPU samples")
    skip = skip_names(plan)
    if skip:
        values["DTRAIN_STACKS_SKIP"] = (skip, "the launcher is no rank: no helper in it")
    return values


def _added(env: tuple[EnvVar, ...], values: dict[str, tuple[str, str]]) -> tuple[EnvVar, ...]:
    built = EnvBuilder({v.name: v for v in env})
    for name, (value, _) in values.items():
        built.set(ORIGIN, **{name: value})
    out = []
    for var in built.done():
        if var.name in values and not var.note:
            var = dataclasses.replace(var, note=values[var.name][1])
        out.append(var)
    return tuple(out)
