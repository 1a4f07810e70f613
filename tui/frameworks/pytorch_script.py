"""PyTorch's script-check rules (`PyTorch.script_rules`), which the other torch-based frameworks
reuse: a process group the plan's command turns on, joined from the variables Azure ML and
torchrun set (no hard-coded master, rank or world size, no second launcher, no variable the
launch does not set); the GPU chosen by local rank; the model wrapped; the data sharded, and
reshuffled each epoch; files written by one rank."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.frameworks import deepspeed_config as ds
from tui.frameworks.launch_env import master_overwritten, mpi_without_mpirun, unset_env
from tui.scripts.args import Arg
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.flow import command_flags
from tui.scripts.syntax import constant, dotted, keyword
from tui.scripts.values import batch_divides, disabled

SAME_DEVICE_BACKEND = 'backend="nccl" if torch.cuda.is_available() else "gloo"'
SETUP_CALLS = (
    "init_process_group",
    "init_distributed",
    "deepspeed.initialize",
    "Accelerator",
    "init_device_mesh",
)
WRAPS = (
    "DistributedDataParallel",
    "FullyShardedDataParallel",
    "DDP",
    "FSDP",
    "fully_shard",
    "prepare",
    "deepspeed.initialize",
    "parallelize_module",
)
"""What makes the ranks' gradients one: a DDP-like wrap or an engine."""
SPAWNS = ("multiprocessing.spawn", "mp.spawn", "start_processes", "spawn")


def setup_calls(src: ScriptFacts) -> list[ast.Call]:
    """What makes the processes one job; a library's `init_dist()`-like call counts where its
    code cannot be read (a function of the code folder is followed instead), and so does one
    given the rendezvous address (`launch(main, …, dist_url=…)`)."""
    return src.find(*SETUP_CALLS) or [
        call
        for name, call in src.calls
        if (last := name.split(".")[-1]) not in src.functions
        and (
            (
                ("dist" in last.lower() or "ddp" in last.lower())
                and ("init" in last.lower() or "setup" in last.lower())
            )
            or any(k.arg == "dist_url" for k in call.keywords)  # detectron2's launch(…)
        )
    ]


def gating_flags(src: ScriptFacts, plan: CheckPlan) -> set[str]:
    """The flags whose defaults leave every process group unmade (the
    `distribution_disabled_by_flag` finding): passing them turns that code on."""
    offs = [plan.flow.off(c) for c in setup_calls(src)] if plan.flow is not None else []
    if not offs or any(o is None for o in offs):
        return set()
    return {f for o in offs for f in o.flags}


def process_group_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A process group that runs under the plan's command; the rendezvous from the variables
    Azure ML and torchrun set; rank and world size from them; no second launcher."""
    setups = setup_calls(src)
    if not setups and (off := _launcher_left_off(plan)) is not None:
        yield src.finding(
            off.node,
            f"under the plan's command ({' '.join(plan.argv) or 'no arguments'}) "
            f"{off.names[0]} keeps its default 'none' (its choices name the launchers: "
            f"{', '.join(map(str, off.choices or ()))}), which leaves distribution off: the "
            f"{plan.world} processes each train alone",
            f"add {off.names[0]} pytorch to the job's arguments (the launcher Azure ML's "
            "variables serve)",
            "distribution_disabled_by_flag",
        )
    elif not setups:
        yield src.finding(
            None,
            f"no process group: nothing calls torch.distributed.init_process_group, so each of "
            f"the plan's {plan.world} processes trains alone on the whole dataset",
            f"dist.init_process_group({SAME_DEVICE_BACKEND}, "
            'init_method="env://", timeout=datetime.timedelta(minutes=30))',
            "no_process_group",
        )
    elif plan.flow is not None:
        yield from disabled(src, plan, setups)
    yield from launch_rules(src, plan)


_LAUNCHERS = frozenset({"pytorch", "slurm", "mpi", "ddp"})
"""Choices that name a way to start distributed processes (OpenMMLab's and BasicSR's
`--launcher none|pytorch|slurm|mpi`)."""


def _launcher_left_off(plan: CheckPlan) -> Arg | None:
    """An option whose choices are `none` and the launchers, left at `none` by the plan's
    command: the library's own setup (out of sight) then makes no process group."""
    if plan.parser is None or plan.outcome is None:
        return None
    for arg in plan.parser.args:
        choices = set(arg.choices or ())
        if not arg.names or "none" not in choices or not choices & _LAUNCHERS:
            continue
        if arg.dest not in plan.outcome.given and constant(arg.default) == "none":
            return arg
    return None


def launch_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """What clashes with how the plan starts and connects the processes, in any torch script:
    the process group's arguments, a hard-coded master, a second launcher, a variable the plan
    does not set, a batch the plan's ranks cannot split."""
    said = [
        finding
        for call in src.find("init_process_group")
        if plan.flow is None or plan.flow.off(call) is None
        for finding in _init_call(src, plan, call)
    ]
    yield from said
    yield from master_overwritten(src, plan)
    yield from mpi_without_mpirun(src, plan)
    yield from _spawns(src, plan)
    yield from unset_env(src, plan)
    yield from batch_divides(src, plan)
    if not any(f.rule == "rank_not_from_env" for f in said):  # its fix covers the mean too
        yield from _sum_over_gpu_count(src, plan)
    yield from ds.engine_config_rules(src, plan)


def _sum_over_gpu_count(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """An all-reduced sum divided by one node's GPU count (`rt /= nprocs` where `nprocs =
    torch.cuda.device_count()`): the mean is over the world, `nodes` times as many ranks."""
    if plan.nodes <= 1:
        return
    for call in src.find("all_reduce"):
        fn = src.function_of(call)
        summed = dotted(call.args[0]) if call.args else ""
        if fn is None or not summed or plan.off(call):
            continue
        for node in ast.walk(fn):
            divisor = _divisor(node, summed)
            origin = _gpu_count(src, divisor) if divisor is not None else None
            if origin is not None:
                yield src.finding(
                    origin,
                    f"the GPU count of one node ({plan.gpus_per_node}) is used as the world size: "
                    f"a sum over all {plan.world} ranks divided by it is {plan.nodes} times the "
                    "mean (and whatever else it splits is split for one node)",
                    'use int(os.environ["WORLD_SIZE"]) (or dist.get_world_size())',
                    "rank_not_from_env",
                )
                return


def _divisor(node: ast.AST, summed: str) -> ast.AST | None:
    """What `summed` is divided by in `summed /= d` or `summed / d`."""
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div | ast.FloorDiv):
        return node.value if dotted(node.target) == summed else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div | ast.FloorDiv):
        return node.right if dotted(node.left) == summed else None
    return None


def _gpu_count(src: ScriptFacts, node: ast.AST, depth: int = 3) -> ast.AST | None:
    """The statement that makes `node` a GPU count (`x = torch.cuda.device_count()`), followed
    through a parameter to what its callers pass and through `args.x = ...`; else None."""
    if depth < 0 or not isinstance(node, ast.Name | ast.Attribute):
        return None
    name = dotted(node)
    fn = src.function_of(node)
    scopes = [fn] if isinstance(node, ast.Name) and fn is not None else []
    scopes += [m.tree for m in src.modules] if not scopes else []
    for scope in scopes:
        for sub in ast.walk(scope):
            if (
                isinstance(sub, ast.Assign)
                and any(dotted(t) == name for t in sub.targets)
                and isinstance(sub.value, ast.Call)
                and dotted(sub.value.func).endswith("device_count")
            ):
                return sub
    if not isinstance(node, ast.Name) or fn is None:
        return None
    params = [a.arg for a in fn.args.args]
    if node.id not in params:
        return None
    at = params.index(node.id)
    for name, caller in src.calls:
        passed = None
        if isinstance(caller.func, ast.Name) and caller.func.id == fn.name:
            passed = caller.args[at] if at < len(caller.args) else None
        elif name.endswith(SPAWNS) and caller.args and _plain_name(caller.args[0]) == fn.name:
            given = keyword(caller, "args")  # mp.spawn(fn, args=(...)): the index comes first
            if isinstance(given, ast.Tuple) and 0 < at <= len(given.elts):
                passed = given.elts[at - 1]
        found = _gpu_count(src, passed, depth - 1) if passed is not None else None
        if found is not None:
            return found
    return None


def _literal(src: ScriptFacts, call: ast.Call, value: str) -> ast.AST:
    """Where the script spells `value`, the one literal a call's argument was followed to (the
    line to change); the call itself when it is spelled nowhere or more than once."""
    module = src.module_of[call].tree
    spelled = [n for n in ast.walk(module) if isinstance(n, ast.Constant) and n.value == value]
    return spelled[0] if len(spelled) == 1 else call


def _touches_gpus(src: ScriptFacts) -> bool:
    """The script puts anything on a GPU at all (a model kept on `torch.device("cpu")` with no
    `cuda` anywhere all-reduces CPU tensors, which gloo is for)."""
    return src.has("cuda", "gpu", "GPU", "accelerator", "device_ids") or any(
        isinstance(s, str) and s.startswith("cuda") for s in src.strings
    )


def _init_call(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> Iterator[Finding]:
    backend, where, said = _backend(plan, call)
    if backend == "nccl" and not plan.gpus:
        yield src.finding(
            where, f"{said} needs GPUs; this machine's rehearsal runs on CPUs",
            SAME_DEVICE_BACKEND, "nccl_on_cpu",
        )  # fmt: skip
    elif backend == "gloo" and plan.gpus and _touches_gpus(src):
        yield src.finding(
            where, f"{said}: gloo on GPUs is many times slower than NCCL",
            SAME_DEVICE_BACKEND, "gloo_on_gpu", "warning",
        )  # fmt: skip
    method_node = keyword(call, "init_method", 1)
    method = constant(method_node)
    if method is None and method_node is not None and plan.flow is not None:
        method = plan.flow.value_at(method_node).value
    if isinstance(method_node, ast.JoinedStr) and method_node.values:
        head = constant(method_node.values[0])
        method = head + "…" if isinstance(head, str) and "://" in head else method
    if isinstance(method, str) and not method.startswith("env://"):
        yield src.finding(
            _literal(src, call, method) if constant(method_node) is None else call,
            f"init_method={method!r}: the plan's {plan.nodes} nodes meet at MASTER_ADDR / "
            "MASTER_PORT, which Azure ML and torchrun set; this address ignores them",
            'init_method="env://" (or leave it out)',
            "init_method_not_env",
        )
    timeout = keyword(call, "timeout")
    yield from _short_timeout(src, plan, call, timeout)
    if timeout is None:
        yield src.finding(
            call, "no timeout: a large model's first step or checkpoint can outlast the "
            "default and stop every rank",
            "timeout=datetime.timedelta(minutes=60) in init_process_group",
            "no_init_timeout", "advice",
        )  # fmt: skip
    yield from _rank_source(src, plan, call)


def _backend(plan: CheckPlan, call: ast.Call) -> tuple[object, ast.AST, str]:
    """The backend `init_process_group` is given under the plan, the line that chose it (the
    call's literal, or a flag's default: `--backend` defaulting to `dist.Backend.GLOO`), and
    how to say so."""
    node = keyword(call, "backend", 0)
    backend = constant(node)
    if backend is not None or node is None or plan.flow is None:
        return backend, call, f'backend="{backend}"'
    value = plan.flow.value_at(node)
    flags = command_flags(value.flags)
    if not isinstance(value.value, str) or not flags:
        return None, call, ""  # only a default is followed (not `"nccl" if cuda else "gloo"`)
    backend = value.value.lower()
    flag = sorted(flags)[0]
    return (
        backend,
        plan.flow.flag_nodes.get(flag, call),
        (f"--{flag} defaults to {backend!r} and the plan's command does not give it"),
    )


SKEW_SECONDS = 60
"""A rendezvous timeout under this (seconds, not minutes) gives up on a later node when Azure ML
starts each node's processes on its own (an image pulled, data mounted). Kept at a minute: the
product's own sample script (presets/scripts/train_ddp.py) waits two."""
_SECONDS = {"weeks": 604800, "days": 86400, "hours": 3600, "minutes": 60, "seconds": 1}


def _short_timeout(
    src: ScriptFacts, plan: CheckPlan, call: ast.Call, timeout: ast.AST | None
) -> Iterator[Finding]:
    """A timeout= of seconds, shorter than the time between the first and the last node's
    start: the first ranks stop waiting for the group before the last node joins it."""
    if plan.nodes <= 1 or plan.spec.launch != "per_process" or not isinstance(timeout, ast.Call):
        return  # a launcher per node meets the others before it starts the ranks
    if not dotted(timeout.func).endswith("timedelta"):
        return
    given = [(k.arg, k.value) for k in timeout.keywords] + [("days", a) for a in timeout.args[:1]]
    total = 0.0
    for unit, node in given:
        value = plan.flow.value_at(node).value if plan.flow is not None else constant(node)
        if unit not in _SECONDS or isinstance(value, bool) or not isinstance(value, int | float):
            return
        total += value * _SECONDS[unit]
    if 0 < total < SKEW_SECONDS:
        yield src.finding(
            call,
            f"timeout={ast.unparse(timeout)} ({total:g} s): Azure ML starts each of the plan's "
            f"{plan.nodes} nodes on its own, often minutes apart, and the ranks already there "
            "stop waiting for the group after that long: the job fails at start-up (the same "
            "timeout also ends any collective that takes longer)",
            "timeout=datetime.timedelta(minutes=30) (or leave it out for the default)",
            "init_timeout_too_short",
        )


def _rank_source(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> Iterator[Finding]:
    """rank= from a spawn index (or a literal), world_size= from the GPU count: right on one
    node, wrong on the plan's."""
    rank, size = keyword(call, "rank"), keyword(call, "world_size")
    if rank is None and size is None:
        return
    words = " ".join(ast.dump(n) for n in (rank, size) if n is not None)
    from_env = "environ" in words or "getenv" in words or "node" in words.lower()
    spawned = under_spawn(src, call)
    sized = plan.flow.value_at(size).value if plan.flow and size is not None else None
    wrong_size = isinstance(sized, int) and 0 < sized != plan.world and not isinstance(sized, bool)
    # where one node's GPU count is made the world size (through spawn's args too)
    counted = _gpu_count(src, size) if size is not None and plan.nodes > 1 else None
    wrong_size = wrong_size or counted is not None
    sized = plan.gpus_per_node if counted is not None else sized
    ranked = constant(rank)
    literal = isinstance(ranked, int) and not isinstance(ranked, bool) and ranked >= 0
    if plan.flow is not None and rank is not None and not literal:
        given = plan.flow.value_at(rank)
        # a rank the launcher's variables gave is right, whatever flags chose the branch
        literal = given.known and bool(command_flags(given.flags)) and isinstance(given.value, int)
        literal = literal and not given.env
        literal = literal and given.value >= 0  # type: ignore[operator]
    local = rank is not None and any(
        "local" in (getattr(n, "id", None) or getattr(n, "attr", "")).lower()
        for n in ast.walk(rank)
        if isinstance(n, ast.Name | ast.Attribute)
    )
    if (spawned and not from_env) or literal or wrong_size or local:
        yield src.finding(
            call,
            "rank and world size come from "
            + ("the spawn index" if spawned else "the script")
            + (f" (world size {sized})" if wrong_size else "")
            + f", not from RANK / WORLD_SIZE: on the plan's {plan.nodes} nodes every node "
            f"numbers its processes 0..{plan.gpus_per_node - 1}, and the world is {plan.world}",
            'dist.init_process_group(backend, init_method="env://") and read '
            'int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]) when needed',
            "rank_not_from_env",
        )


def under_spawn(src: ScriptFacts, node: ast.AST, depth: int = 3) -> bool:
    """In a function that `mp.spawn` starts (or one it calls): its first argument is the spawn
    index."""
    fn = src.function_of(node)
    if fn is None or depth == 0:
        return False
    for caller in src.callers(fn):
        name = dotted(caller.func)
        if name.endswith(SPAWNS) and caller.args and _plain_name(caller.args[0]) == fn.name:
            return True
        if under_spawn(src, caller, depth - 1):
            return True
    return False


def _plain_name(node: ast.AST) -> str:
    return dotted(node).split(".")[-1]


def _spawns(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    if plan.started_per_node <= 1:
        return
    for name, call in src.calls:
        process = name.endswith(("multiprocessing.Process", "mp.Process"))
        spawn = name.endswith(SPAWNS) and ("spawn" in name or "start_processes" in name)
        if not (spawn or process):
            continue
        if plan.flow is not None and plan.flow.off(call) is not None:
            continue
        n = keyword(call, "nprocs", 2) if not process else _loop_count(src, call)
        value = plan.flow.value_at(n).value if plan.flow and n is not None else None
        count = value if isinstance(value, int) and not isinstance(value, bool) else "N"
        yield src.finding(
            call,
            f"{name}(nprocs={count}) under a plan that already starts "
            f"{plan.started_per_node} processes per node: each starts {count} more "
            f"({plan.started_per_node} x {count} per node)",
            "let the plan start the processes: call the training function once, with the "
            "rank, local rank and world size from RANK, LOCAL_RANK and WORLD_SIZE",
            "spawn_under_launcher",
        )
        return


def _loop_count(src: ScriptFacts, call: ast.AST) -> ast.AST | None:
    """`for rank in range(N): Process(...)`: N."""
    current = src.parents.get(call)
    while current is not None:
        loop = isinstance(current, ast.For) and isinstance(current.iter, ast.Call)
        if loop and dotted(current.iter.func) == "range" and current.iter.args:  # type: ignore[attr-defined]
            return current.iter.args[-1]  # type: ignore[attr-defined]
        current = src.parents.get(current)
    return None
