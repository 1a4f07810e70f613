"""The script check's rules about values followed into use, for every framework: an argument's
default (the plan's command does not give it) reaching the call that uses it (`script_flow`
gives its value under the plan).

- a loop count that defaults to 0 or less (`range(args.epochs)`, epochs=-1): nothing trains;
- a path that defaults to None (`os.path.join(args.save_dir, …)`, `torch.save(m, args.out)`):
  a crash when it is reached, after the training;
- a path that defaults to another platform's folder (SageMaker's `/opt/ml/model`);
- a device that defaults to the CPU (`.to(args.device)`) on a plan whose ranks have GPUs;
- the call that makes the processes one job kept off by a default: a flag's, or a variable's the
  plan does not set (`if str2bool(os.getenv("DISTRIBUTED", "False")): hvd.init()`);
- an `assert` on the batch's arithmetic that the plan's world size fails.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.flow import ENV_FLAG, command_flags
from tui.scripts.syntax import dotted

_PATH_USES = ("os.path.join", "path.join", "torch.save", "open", "makedirs", "Path")
_FOREIGN = ("/opt/ml/", "/scratch/")
"""Folders only another platform's nodes have: SageMaker's container layout (`/opt/ml/model`,
`/opt/ml/input/data/...`), an HPC cluster's scratch file system (`/scratch/project_…`); an
Azure ML node has none of them."""


def _spelled_head(node: ast.AST) -> str | None:
    """The text a path spelled in the script starts with: a literal, the left of `%` or `+`, an
    f-string's first part, `os.path.join`'s first argument."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.BinOp):
        return _spelled_head(node.left)
    if isinstance(node, ast.JoinedStr) and node.values:
        return _spelled_head(node.values[0])
    if isinstance(node, ast.Call) and dotted(node.func).endswith("path.join") and node.args:
        return _spelled_head(node.args[0])
    return None


def _overridden(src: ScriptFacts) -> bool:
    """The parsed arguments are set again from a file the code reads (`for k, v in
    json.load(f).items(): setattr(args, k, v)`, `vars(args).update(config)`): any option's
    value may come from there, so no default can be said to reach a use."""
    return any(
        (name == "setattr" and len(call.args) == 3 and not isinstance(call.args[1], ast.Constant))
        or (name.endswith(".update") and ("__dict__" in name or _vars_of(call)))
        for name, call in src.calls
    )


def _vars_of(call: ast.Call) -> bool:
    """`vars(args).update(…)`."""
    func = call.func
    inner = func.value if isinstance(func, ast.Attribute) else None
    return isinstance(inner, ast.Call) and dotted(inner.func) == "vars"


def _foreign(path: str) -> bool:
    return (path.rstrip("/") + "/").startswith(_FOREIGN)


def value_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    if plan.flow is None or _overridden(src):
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
        if (
            len(command_flags(count.flags)) == 1  # one flag's default, not a sum of several
            and isinstance(count.value, int)
            and not isinstance(count.value, bool)
        ):
            low = flow.value_at(call.args[0]).value if len(call.args) > 1 else 0
            if isinstance(low, int) and count.value <= low:
                flag = _flag(flow, command_flags(count.flags))
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
        if command_flags(path.flags) and isinstance(path.value, str) and _foreign(path.value):
            flag = _flag(flow, command_flags(path.flags))
            yield (
                "foreign_platform_path",
                call,
                flag,
                f"{name}() is given --{flag}, which defaults to {path.value!r}, a folder only "
                "another platform's nodes have (SageMaker's /opt/ml): the plan's command does "
                "not give it, so it fails here on Azure ML, when it is reached",
                f"give --{flag} in the job's arguments (outputs/... is kept after the job, or a "
                "mounted input's path)",
            )
        elif (
            head := _spelled_head(call.args[1] if saved else call.args[0])
            or (path.value if isinstance(path.value, str) and not path.flags else None)
        ) and _foreign(head):  # spelled here, or a value the plan leaves (a variable's fallback)
            yield (
                "foreign_platform_path",
                call,
                head,
                f"{name}() is given {head!r}…, a folder only another platform's nodes have "
                "(SageMaker's /opt/ml, a cluster's /scratch): it fails here on Azure ML, when it "
                "is reached",
                "write under outputs/ (kept after the job) or a mounted output's path, read from "
                "a mounted input's",
            )
        if command_flags(path.flags) and path.known and path.value is None:
            flag = _flag(flow, command_flags(path.flags))
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
        if command_flags(device.flags) and device.value == "cpu":
            flag = _flag(flow, command_flags(device.flags))
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


def disabled(src: ScriptFacts, plan: CheckPlan, setups: list[ast.Call]) -> Iterator[Finding]:
    """Every call that makes the processes one job (`init_process_group`, `hvd.init`) is off
    under the plan: the flags, or the variables the plan does not set, whose defaults keep it
    off (`distribution_disabled_by_flag`, at the first of them); with no flag, the script's own
    literals (`no_process_group`)."""
    flow = plan.flow
    offs = [flow.off(call) for call in setups] if flow is not None and setups else []
    if flow is None or not offs or any(o is None for o in offs):
        return
    flags = sorted(
        {f for o in offs if o is not None for f in o.flags if f in flow.flag_nodes},
        key=lambda f: getattr(flow.flag_nodes[f], "lineno", 0),
    )
    if not flags:  # a literal of the script's own keeps them off (`distributed = False`)
        yield src.finding(
            None,
            f"no process group under the plan: the script's own values keep every call that "
            f"makes it off (line {setups[0].lineno} is never reached), so each of the plan's "
            f"{plan.world} processes trains alone on the whole dataset",
            "turn the script's distributed switch on, or decide it from the WORLD_SIZE the "
            "launcher sets",
            "no_process_group",
        )
        return
    names = {a.dest: (a.names or (a.dest,))[0] for a in plan.parser.args} if plan.parser else {}
    shown = [_shown(f, names) for f in flags]
    if flags[0].startswith(ENV_FLAG):
        name = flags[0][1:]
        subject = f"the plan does not set the {name} environment variable, so it"
        default = _env_default(flow, flags[0])
        fix = (
            f"set {name} in the job's environment (--set env.{name}=…) to the value that turns "
            "distribution on, or read the rank variables the plan sets (RANK, WORLD_SIZE)"
        )
    else:
        first = flow.args.get(flags[0])
        command = " ".join(plan.argv) or "no arguments"
        subject = f"under the plan's command ({command}) {shown[0]}"
        default = f"{first.value!r}" if first is not None and first.known else "its default"
        fix = (
            "read the rank variables the plan sets (RANK, WORLD_SIZE, LOCAL_RANK) instead of "
            f"{shown[0]}'s default, or add {shown[0]} to the job's arguments"
        )
    yield src.finding(
        flow.flag_nodes[flags[0]],
        f"{subject} keeps its default {default}, which leaves distribution off: the "
        f"process group is never made and the {plan.world} processes each train alone"
        + (f" (also decided by {', '.join(shown[1:])})" if len(shown) > 1 else ""),
        fix,
        "distribution_disabled_by_flag",
    )


def _shown(flag: str, names: dict[str, str]) -> str:
    if flag.startswith(ENV_FLAG):
        return f"the {flag[1:]} environment variable"
    return names.get(flag, flag)


def _env_default(flow, flag: str) -> str:
    """The default a `getenv(NAME, default)` read gives, as the script spells it."""
    args = getattr(flow.flag_nodes[flag], "args", [])
    return repr(args[1].value) if len(args) > 1 and isinstance(args[1], ast.Constant) else "None"


def batch_divides(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """An `assert` on the batch's arithmetic that fails with the plan's world size: a literal
    that cannot be split over the plan's ranks (`accumulation % world_size == 0`), or a count
    the ranks leave at nothing (`total // (batch * world_size) > 0`). One finding: the first."""
    if plan.flow is None:
        return
    for stmt, local in plan.flow.failed:
        test = stmt.test
        if not isinstance(test, ast.Compare):
            continue
        left = test.left
        if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod):
            total = plan.flow.value(left.left, local).value
            size = plan.flow.value(left.right, local).value
            name = left.left
            where = plan.flow.assigned.get(name.id) if isinstance(name, ast.Name) else None
            flags = sorted(command_flags(plan.flow.value(name, local).flags))
            where = where or (plan.flow.flag_nodes.get(flags[0]) if len(flags) == 1 else None)
            yield src.finding(
                where or stmt,
                f"{ast.unparse(name)} = {total} is not divisible by {ast.unparse(left.right)} = "
                f"{size} on the plan's {plan.world} ranks: the assert at line {stmt.lineno} "
                "stops every rank",
                f"make it a multiple of {size} (or scale it by the world size)",
                "batch_not_divisible",
            )
        elif _about_batch(test):
            value = plan.flow.value(left, local).value
            yield src.finding(
                stmt,
                f"{ast.unparse(left)} is {value} on the plan's {plan.world} ranks, so "
                f"`{ast.unparse(test)}` fails: the assert stops every rank at start-up",
                f"give a global batch that is a multiple of the per-rank batch × {plan.world}",
                "batch_not_divisible",
            )
        else:
            continue
        return


_BATCH_WORDS = ("batch", "accum", "world")


def _about_batch(test: ast.Compare) -> bool:
    """The assert's names speak of the batch, its accumulation or the world size."""
    spelled = [
        (getattr(n, "id", None) or getattr(n, "attr", "")).lower()
        for n in ast.walk(test)
        if isinstance(n, ast.Name | ast.Attribute)
    ]
    return any(w in name for name in spelled for w in _BATCH_WORDS)
