"""The in-job helpers as part of the plan: the variables they need in every process, and why.

dtrain-tui's in-job helpers (`tui/injob/`, standard library only) reach each rank through
Python's `sitecustomize` hook: the plan puts their folder first on PYTHONPATH and says, in
DTRAIN_STACKS, after how many minutes in one place a rank prints its stacks by itself
(`JobSpec.stacks` = 0: no dumper), and in DTRAIN_GPU_SAMPLE every how many seconds local rank 0
of each node prints its GPUs' use (naming the node as its launcher does). The job's own
DTRAIN_GPU_SAMPLE wins (0: no sampler); with both off, nothing is added.

Where the folder comes from:
- on this machine, the installed package's own folder (nothing is copied; the shell's PYTHONPATH
  follows it);
- on Azure ML, a job input (`dtrain_tui`, uploaded with the job like its code and downloaded on
  each node), put first on PYTHONPATH by an `export` at the head of the job's command, so the
  image's PYTHONPATH and the job's own still follow it (an environment variable would replace
  them). There the GPU sampler rides with the dumper: a job with stacks 0 carries nothing unless
  its DTRAIN_GPU_SAMPLE asks, so an imported job file without the helpers exports as it was
  written (`without_helpers` takes them back out of a file dtrain-tui wrote).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

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


INPUT = "dtrain_tui"
"""The Azure ML job input that carries the helpers' folder to every node."""
REF = "${{inputs." + INPUT + "}}"
"""How the job's command names the input's folder on the node (Azure ML fills it in)."""
EXPORT = 'export PYTHONPATH="' + REF + '${PYTHONPATH:+:$PYTHONPATH}"; '
"""The head of an Azure ML job's command: the helpers first, whatever PYTHONPATH the node has."""
AZURE_WHY = (
    "on Azure ML the helpers' folder travels as the job input `dtrain_tui` (uploaded with the "
    "job, downloaded on each node), and the command's first words put it first on PYTHONPATH, "
    "before the image's; the stacks a rank prints, and its GPU lines, are in its own log."
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
    """`plan` with the in-job helpers' variables in every node and rank (and, on Azure ML, their
    folder as a job input and the command's PYTHONPATH export), or as it was when they are off."""
    spec = plan.spec
    azure = plan.target.kind != "local"
    # On Azure ML the sampler rides with the dumper unless the job's env asks for it alone.
    rides = not azure or spec.stacks > 0 or "DTRAIN_GPU_SAMPLE" in spec.env
    gpus = gpu_seconds(plan) if rides else 0.0
    if spec.stacks <= 0 and gpus <= 0:
        return plan
    values = _values(plan, azure)
    inner = plan.ranks

    def rank(index: int) -> RankPlan:
        made = inner[index]
        return dataclasses.replace(made, env=_added(made.env, values))

    nodes = tuple(dataclasses.replace(n, env=_added(n.env, values)) for n in plan.nodes)
    whys = [WHY.format(minutes=spec.stacks)] if spec.stacks > 0 else []
    if gpus:
        whys.append(GPU_WHY.format(seconds=f"{gpus:g}"))
    plan = dataclasses.replace(
        plan, nodes=nodes, ranks=Ranks(len(inner), rank), explanations=(*plan.explanations, *whys)
    )
    if not azure:
        return plan
    job_env = {k: v for k, (v, _) in values.items() if k != "PYTHONPATH"}
    return dataclasses.replace(
        plan,
        command=EXPORT + plan.command,
        nodes=tuple(dataclasses.replace(n, command=EXPORT + n.command) for n in plan.nodes),
        env_vars={**plan.env_vars, **job_env},
        inputs={INPUT: {"type": "uri_folder", "path": str(HELPER.parent), "mode": "download"}},
        explanations=(*plan.explanations, AZURE_WHY),
    )


def without_helpers(job: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A job file's fields without what `with_stacks` added to it on Azure ML, and the stacks
    minutes it asked for (0 for a file that does not carry the helpers: it runs as written)."""
    inputs = job.get("inputs")
    if not isinstance(inputs, dict) or INPUT not in inputs:
        return job, 0
    out = dict(job)
    out["inputs"] = {k: v for k, v in inputs.items() if k != INPUT}
    if not out["inputs"]:
        del out["inputs"]
    command = out.get("command")
    if isinstance(command, str):
        out["command"] = command.removeprefix(EXPORT)
    env = out.get("environment_variables")
    minutes = 0
    if isinstance(env, dict):
        env = dict(env)
        try:
            minutes = max(0, int(float(env.pop("DTRAIN_STACKS", 0))))
        except (TypeError, ValueError):
            minutes = 0
        env.pop("DTRAIN_STACKS_SKIP", None)
        if str(env.get("DTRAIN_GPU_SAMPLE")) == str(GPU_SECONDS):
            del env["DTRAIN_GPU_SAMPLE"]
        out["environment_variables"] = env
        if not env:
            del out["environment_variables"]
    return out, minutes


def _values(plan: LaunchPlan, azure: bool) -> dict[str, tuple[str, str]]:
    """Name → (value, note) of what the helpers need."""
    yours = plan.spec.env.get("PYTHONPATH")
    if azure:
        path = (
            REF + ":$PYTHONPATH",
            "the command's export: dtrain-tui's in-job helpers (input dtrain_tui), then the "
            "PYTHONPATH the node had",
        )
    else:
        path = (
            f"{HELPER.parent}:{yours}" if yours else str(HELPER.parent),
            "dtrain-tui's in-job helpers first" + (", yours after it" if yours else ""),
        )
    values = {"PYTHONPATH": path}
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
