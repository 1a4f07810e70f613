"""The script check's rules about values followed into use, for every framework: an argument's
default (the plan's command does not give it) reaching the call that uses it (`script_flow`
gives its value under the plan).

- a loop count that defaults to 0 or less (`range(args.epochs)`, epochs=-1): nothing trains;
- a path that defaults to None (`os.path.join(args.save_dir, …)`, `torch.save(m, args.out)`):
  a crash when it is reached, after the training;
- a device that defaults to the CPU (`.to(args.device)`) on a plan whose ranks have GPUs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts

_PATH_USES = ("os.path.join", "path.join", "torch.save", "open", "makedirs", "Path")


def value_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    if plan.flow is None:
        return
    said: set[tuple[str, str]] = set()
    for name, call in src.calls:
        for rule, node, flag, what, fix in _uses(plan, name, call):
            if (rule, flag) in said or plan.off(call):
                continue  # one finding per default: its fix covers every use
            said.add((rule, flag))
            yield src.finding(node, what, fix, rule, "warning" if "cpu" in rule else "error")


def _uses(plan: CheckPlan, name: str, call: ast.Call) -> Iterator[tuple]:
    flow = plan.flow
    assert flow is not None
    if name == "range" and call.args:
        count = flow.value_at(call.args[-1] if len(call.args) <= 2 else call.args[1])
        if count.flags and isinstance(count.value, int) and not isinstance(count.value, bool):
            low = flow.value_at(call.args[0]).value if len(call.args) > 1 else 0
            if isinstance(low, int) and count.value <= low:
                flag = _flag(flow, count.flags)
                yield (
                    "default_runs_nothing",
                    call,
                    flag,
                    f"range() runs no step: --{flag} defaults to {count.value} and the plan's "
                    "command does not give it, so this loop never runs",
                    f"give --{flag} in the job's arguments, or a default that trains",
                )
    elif name.endswith(_PATH_USES) and call.args:
        saved = name == "torch.save" and len(call.args) > 1
        path = flow.value_at(call.args[1] if saved else call.args[0])
        if path.flags and path.known and path.value is None:
            flag = _flag(flow, path.flags)
            yield (
                "default_path_none",
                call,
                flag,
                f"{name}() is given --{flag}, which defaults to None and the plan's command "
                "does not give: it fails here, when it is reached (after the training)",
                f"give --{flag} in the job's arguments (outputs/... is kept after the job)",
            )
    elif name.endswith(".to") and call.args and plan.gpus:
        device = flow.value_at(call.args[0])
        if device.flags and device.value == "cpu":
            flag = _flag(flow, device.flags)
            yield (
                "default_device_cpu",
                call,
                flag,
                f"--{flag} defaults to 'cpu' and the plan's command does not give it: every "
                "rank trains on the CPU while its GPU idles",
                f"give --{flag} cuda in the job's arguments, or default to the local rank's GPU",
            )


def _flag(flow, flags: frozenset[str]) -> str:
    """The flag as the script spells it (its add_argument's first name), without dashes."""
    dest = sorted(flags)[0]
    node = flow.flag_nodes.get(dest)
    for arg in getattr(node, "args", []):
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value[:1] == "-":
            return arg.value.lstrip("-")
    return dest
