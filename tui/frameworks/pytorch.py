"""PyTorch DDP: a process group joined from RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, set by
Azure ML (per-process) or by torchrun (per-node). torchrun is this module's launcher; the other
torch-based frameworks (Lightning, Hugging Face, DeepSpeed) build on this one."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.core.plan_types import EnvBuilder, Origin
from tui.core.script_facts import CheckPlan, Finding, ScriptFacts, constant, dotted, keyword
from tui.frameworks.base import Framework, Launcher, Package, Refs

if TYPE_CHECKING:
    from tui.core.spec import JobSpec

TORCHRUN = Origin("torchrun", "launcher")


def torchrun_worker_env(
    env: EnvBuilder,
    origin: Origin,
    n: int,
    g: int,
    node: int,
    local: int,
    addr: str,
    port: int,
) -> None:
    """What torch.distributed.run (which `accelerate launch` uses too) gives each worker."""
    defaults = {"TORCH_NCCL_ASYNC_ERROR_HANDLING": "1"}  # only when unset
    if g > 1:
        defaults["OMP_NUM_THREADS"] = "1"  # with a warning in the log, to avoid oversubscription
    env.defaults(origin, **defaults)
    env.set(
        origin,
        TORCHELASTIC_USE_AGENT_STORE="True",
        TORCHELASTIC_SIGNALS_TO_HANDLE="SIGTERM,SIGINT,SIGHUP,SIGQUIT",
        RANK=node * g + local,
        LOCAL_RANK=local,
        WORLD_SIZE=n * g,
        LOCAL_WORLD_SIZE=g,
        GROUP_RANK=node,
        GROUP_WORLD_SIZE=n,
        ROLE_RANK=node * g + local,
        ROLE_WORLD_SIZE=n * g,
        ROLE_NAME="default",
        MASTER_ADDR=addr,
        MASTER_PORT=port,
        TORCHELASTIC_RESTART_COUNT=0,
        TORCHELASTIC_MAX_RESTARTS=0,
        TORCHELASTIC_RUN_ID="none",
    )


def _torchrun_head(spec: JobSpec, refs: Refs) -> list[str]:
    return [
        "torchrun",
        f"--nnodes {spec.nodes}",
        f"--nproc_per_node {spec.gpus_per_node}",
        f"--node_rank {refs.node_rank}",
        f"--master_addr {refs.master_addr}",
        f"--master_port {refs.master_port}",
    ]


def _torchrun_env(env: EnvBuilder, *args: Any) -> None:
    torchrun_worker_env(env, TORCHRUN, *args)


def elastic_split_env(log_dir: Path, marker_template: str) -> dict[str, str]:
    """torch.distributed.run with `--tee 3` (here `PET_TEE=3`, so the command stays the plan's)
    copies every worker line to its own stdout/stderr behind a header, and
    `TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE` makes that header carry the global rank."""
    return {
        "PET_TEE": "3",
        "PET_LOG_DIR": str(log_dir / "torchrun"),
        "TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE": marker_template,
    }


ELASTIC_ROOT_CAUSE = (
    r"Root Cause \(first observed failure\):.*?rank\s*:\s*(\d+).*?exitcode\s*:\s*(-?\d+)"
)
"""torch.distributed.run's ChildFailedError summary: the first rank that failed, and its code."""


TORCHRUN_LAUNCHER = Launcher(
    "torchrun",
    spawns=True,
    modules=("torch",),
    tool="torchrun",
    install="install PyTorch there (`pip install torch`)",
    head=_torchrun_head,
    worker_env=_torchrun_env,
    detect=re.compile(
        r"(^|[\s;&|])torchrun\s|python[0-9.]*\s+-m\s+torch\.distributed\.(run|launch)\s"
    ),
    split_env=elastic_split_env,
    root_cause=ELASTIC_ROOT_CAUSE,
)


# ---- the script check -----------------------------------------------------------------------

SAME_DEVICE_BACKEND = 'backend="nccl" if torch.cuda.is_available() else "gloo"'
SETUP_CALLS = ("init_process_group", "init_distributed", "deepspeed.initialize", "Accelerator")
WRAPS = ("DistributedDataParallel", "FullyShardedDataParallel", "DDP", "FSDP", "prepare")
SPAWNS = ("multiprocessing.spawn", "mp.spawn", "start_processes", "spawn")


def setup_calls(src: ScriptFacts) -> list[ast.Call]:
    return src.find(*SETUP_CALLS) or [
        c for name, c in src.calls if "init_distributed" in name or "setup_distributed" in name
    ]


def process_group_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A process group that runs under the plan's command; the rendezvous from the variables
    Azure ML and torchrun set; rank and world size from them; no second launcher."""
    setups = setup_calls(src)
    if not setups:
        yield src.finding(
            None,
            f"no process group: nothing calls torch.distributed.init_process_group, so each of "
            f"the plan's {plan.world} processes trains alone on the whole dataset",
            f"dist.init_process_group({SAME_DEVICE_BACKEND}, "
            'init_method="env://", timeout=datetime.timedelta(minutes=30))',
            "no_process_group",
        )
    elif plan.flow is not None:
        offs = [plan.flow.off(c) for c in setups]
        if all(o is not None for o in offs):
            yield from _disabled(src, plan, offs)
    yield from launch_rules(src, plan)


def launch_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """What clashes with how the plan starts and connects the processes, in any torch script:
    the process group's arguments, a hard-coded master, a second launcher, a variable the plan
    does not set, a batch the plan's ranks cannot split."""
    for call in src.find("init_process_group"):
        if plan.flow is None or plan.flow.off(call) is None:
            yield from _init_call(src, plan, call)
    yield from _master_overwritten(src, plan)
    yield from _spawns(src, plan)
    yield from _unset_env(src, plan)
    yield from batch_divides(src, plan)


LAUNCHER_VARS = (
    "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
    "NODE_RANK", "GROUP_RANK", "GROUP_WORLD_SIZE", "ROLE_RANK", "ROLE_WORLD_SIZE",
    "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_RANK", "PMI_SIZE", "SLURM_PROCID", "SLURM_NTASKS",
    "SLURM_LOCALID", "TORCHELASTIC_RUN_ID",
)  # fmt: skip
"""Variables a launcher sets: a script that requires one the plan does not set dies."""


def _unset_env(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`os.environ["X"]` (required, no default) for a launcher variable the plan's launch does
    not set."""
    said: set[str] = set()
    for key, node in env_reads(src):
        if key in LAUNCHER_VARS and key not in plan.env and key not in said:
            if plan.flow is not None and plan.flow.off(node) is not None:
                continue
            said.add(key)
            known = ", ".join(v for v in LAUNCHER_VARS if v in plan.env)
            yield src.finding(
                node,
                f"os.environ[{key!r}] is required, but the plan's launch does not set {key}: "
                "every rank stops with KeyError",
                f"derive it from what the plan sets ({known}), or os.environ.get({key!r}, default)",
                "env_var_not_set",
            )


def env_reads(src: ScriptFacts) -> Iterator[tuple[str, ast.AST]]:
    """(key, statement) for each `os.environ[KEY]` read in code that runs; a key in a loop
    over literal names counts too."""
    for module in src.modules:
        for node in ast.walk(module.tree):
            if not (
                isinstance(node, ast.Subscript)
                and isinstance(node.ctx, ast.Load)
                and dotted(node.value).endswith("environ")
                and src.runs(node)
            ):
                continue
            key = constant(node.slice)
            keys = [key] if isinstance(key, str) else _loop_keys(src, node)
            for k in keys:
                yield k, _statement(src, node)


def _loop_keys(src: ScriptFacts, node: ast.Subscript) -> list[str]:
    """`{k: os.environ[k] for k in ("A", "B")}`: the literal names it reads."""
    if not isinstance(node.slice, ast.Name):
        return []
    current = src.parents.get(node)
    while current is not None and not isinstance(current, ast.stmt):
        for gen in getattr(current, "generators", ()):
            if isinstance(gen.target, ast.Name) and gen.target.id == node.slice.id:
                values = [constant(e) for e in getattr(gen.iter, "elts", ())]
                return [v for v in values if isinstance(v, str)]
        current = src.parents.get(current)
    return []


def _statement(src: ScriptFacts, node: ast.AST) -> ast.AST:
    current = node
    while current is not None and not isinstance(current, ast.stmt):
        current = src.parents.get(current)
    return current or node


def batch_divides(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`assert accumulation % world_size == 0` that fails with the plan's world size: the
    literal it asserts on cannot be split over the plan's ranks."""
    if plan.flow is None:
        return
    for stmt, local in plan.flow.failed:
        test = stmt.test
        if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.BinOp)):
            continue
        if not isinstance(test.left.op, ast.Mod):
            continue
        left, right = test.left.left, test.left.right
        total = plan.flow.value(left, local).value
        size = plan.flow.value(right, local).value
        where = plan.flow.assigned.get(left.id) if isinstance(left, ast.Name) else None
        yield src.finding(
            where or stmt,
            f"{ast.unparse(left)} = {total} is not divisible by {ast.unparse(right)} = {size} "
            f"on the plan's {plan.world} ranks: the assert at line {stmt.lineno} stops every rank",
            f"make it a multiple of {size} (or scale it by the world size)",
            "batch_not_divisible",
        )


def _disabled(src: ScriptFacts, plan: CheckPlan, offs: list[Any]) -> Iterator[Finding]:
    flags = sorted(
        {f for o in offs for f in o.flags if f in plan.flow.flag_nodes},
        key=lambda f: getattr(plan.flow.flag_nodes[f], "lineno", 0),
    )
    if not flags:
        return
    flag = flags[0]
    node = plan.flow.flag_nodes[flag]
    value = plan.flow.args.get(flag)
    shown = f"{value.value!r}" if value is not None and value.known else "its default"
    yield src.finding(
        node,
        f"under the plan's command ({' '.join(plan.argv) or 'no arguments'}) {flag} keeps "
        f"its default {shown}, which leaves distribution off: the process group is never "
        f"made and the {plan.world} processes each train alone"
        + (f" (also decided by {', '.join(flags[1:])})" if len(flags) > 1 else ""),
        f"read the rank variables the plan sets (RANK, WORLD_SIZE, LOCAL_RANK) instead of "
        f"{flag}'s default, or add the flag to the job's arguments",
        "distribution_disabled_by_flag",
    )


def _init_call(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> Iterator[Finding]:
    backend = constant(keyword(call, "backend", 0))
    if backend == "nccl" and not plan.gpus:
        yield src.finding(
            call, 'backend="nccl" needs GPUs; this machine\'s rehearsal runs on CPUs',
            SAME_DEVICE_BACKEND, "nccl_on_cpu",
        )  # fmt: skip
    elif backend == "gloo" and plan.gpus:
        yield src.finding(
            call, 'backend="gloo" on GPUs is many times slower than NCCL',
            SAME_DEVICE_BACKEND, "gloo_on_gpu", "warning",
        )  # fmt: skip
    method_node = keyword(call, "init_method")
    method = constant(method_node)
    if method is None and method_node is not None and plan.flow is not None:
        method = plan.flow.value(method_node, {}).value
    if isinstance(method_node, ast.JoinedStr) and method_node.values:
        head = constant(method_node.values[0])
        method = head + "…" if isinstance(head, str) and "://" in head else method
    if isinstance(method, str) and not method.startswith("env://"):
        yield src.finding(
            call,
            f"init_method={method!r}: the plan's {plan.nodes} nodes meet at MASTER_ADDR / "
            "MASTER_PORT, which Azure ML and torchrun set; this address ignores them",
            'init_method="env://" (or leave it out)',
            "init_method_not_env",
        )
    if keyword(call, "timeout") is None:
        yield src.finding(
            call, "no timeout: a large model's first step or checkpoint can outlast the "
            "default and stop every rank",
            "timeout=datetime.timedelta(minutes=60) in init_process_group",
            "no_init_timeout", "advice",
        )  # fmt: skip
    yield from _rank_source(src, plan, call)


def _rank_source(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> Iterator[Finding]:
    """rank= from a spawn index (or a literal), world_size= from the GPU count: right on one
    node, wrong on the plan's."""
    rank, size = keyword(call, "rank"), keyword(call, "world_size")
    if rank is None and size is None:
        return
    words = " ".join(ast.dump(n) for n in (rank, size) if n is not None)
    from_env = "environ" in words or "getenv" in words or "node" in words.lower()
    spawned = _under_spawn(src, call)
    sized = plan.flow.value(size, {}).value if plan.flow and size is not None else None
    wrong_size = isinstance(sized, int) and 0 < sized != plan.world and not isinstance(sized, bool)
    ranked = constant(rank)
    literal = isinstance(ranked, int) and not isinstance(ranked, bool) and ranked >= 0
    if plan.flow is not None and rank is not None and not literal:
        given = plan.flow.value(rank, {})
        literal = given.known and bool(given.flags) and isinstance(given.value, int)
        literal = literal and given.value >= 0  # type: ignore[operator]
    if (spawned and not from_env) or literal or wrong_size:
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


def _under_spawn(src: ScriptFacts, node: ast.AST, depth: int = 3) -> bool:
    fn = src.function_of(node)
    if fn is None or depth == 0:
        return False
    for caller in src.callers(fn):
        name = dotted(caller.func)
        if name.endswith(SPAWNS) and caller.args and _plain_name(caller.args[0]) == fn.name:
            return True
        if _under_spawn(src, caller, depth - 1):
            return True
    return False


def _plain_name(node: ast.AST) -> str:
    return dotted(node).split(".")[-1]


def _master_overwritten(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    if plan.nodes <= 1:
        return
    for key, node, stmt in env_writes(src):
        value = constant(node)
        if value is None and plan.flow is not None:
            given = plan.flow.value(node, {})
            value = given.value if given.known and given.flags else None
        if (
            key in ("MASTER_ADDR", "MASTER_PORT")
            and isinstance(value, str | int)
            and not _off(plan, stmt)
        ):
            yield src.finding(
                stmt,
                f"{key} is set to {value!r}, replacing the "
                f"{'master node' if key == 'MASTER_ADDR' else 'port'} the plan gives: the "
                f"{plan.nodes} nodes never meet",
                f"remove it (or os.environ.setdefault({key!r}, ...)): Azure ML and torchrun set it",
                "hardcoded_master",
            )


def env_writes(src: ScriptFacts) -> Iterator[tuple[str, ast.AST, ast.AST]]:
    """(key, value, statement) for each `os.environ[KEY] = value` in code that runs."""
    for module in src.modules:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Assign) and src.runs(node):
                for target in node.targets:
                    if (
                        isinstance(target, ast.Subscript)
                        and dotted(target.value).endswith("environ")
                        and isinstance(constant(target.slice), str)
                    ):
                        yield str(constant(target.slice)), node.value, node


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
        value = plan.flow.value(n, {}).value if plan.flow and n is not None else None
        count = value if isinstance(value, int) and not isinstance(value, bool) else "N"
        yield src.finding(
            call,
            f"{name}(nprocs={count}) under a plan that already starts "
            f"{plan.started_per_node} processes per node: each starts {count} more "
            f"({plan.started_per_node} x {count} per node)",
            "call the training function once per process (the plan starts one per GPU), "
            "or choose per-node launch without a launcher",
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


def data_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """LOCAL_RANK picks the device; the model wrapped; a DistributedSampler, and `set_epoch`
    each epoch."""
    yield from device_rules(src, plan)
    if not setup_calls(src):
        return  # the process group's fix brings the wrap and the sampler
    if not src.find(*WRAPS) and not src.has(*WRAPS):
        yield src.finding(
            None,
            "the model is never wrapped in DistributedDataParallel: gradients are not "
            f"averaged, so the {plan.world} copies drift apart",
            "model = DistributedDataParallel(model, device_ids=[local_rank])",
            "no_ddp_wrap",
        )
    yield from sampler_rules(src, plan)


_LOCAL_WORDS = ("LOCAL_RANK", "local_rank", "OMPI_COMM_WORLD_LOCAL_RANK", "local_process_index")
_DEVICE_CHOICES = ("current_accelerator", "torch.device", "cuda", "set_device", "set_device_index")
_INDEXED = ("set_device", "set_device_index", "to", "cuda")


def device_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """The GPU chosen by local rank: not GPU 0 in every process, not the global rank."""
    if not plan.gpus:
        return
    if not src.has(*_LOCAL_WORDS):
        chosen = [c for c in src.find(*_DEVICE_CHOICES) if _means_gpu(c) and not _off(plan, c)]
        chosen.sort(key=lambda c: (src.file(c) != src.modules[0].file, c.lineno))
        if chosen:
            yield src.finding(
                chosen[0],
                f"the device is chosen without the local rank: the {plan.gpus_per_node} "
                "processes of a node all use GPU 0",
                'torch.cuda.set_device(int(os.environ["LOCAL_RANK"])) and use that device',
                "device_not_local_rank",
            )
        return
    said: set[ast.AST | None] = set()
    for name, call in src.calls:
        index = _device_index(name, call)
        if index is None or src.function_of(call) in said:
            continue
        flag = _flag_default(plan, index)
        if flag is not None and not _off(plan, call):
            said.add(src.function_of(call))
            yield src.finding(
                _statement(src, call),
                f"the GPU index is --{flag}'s default ({plan.flow.args[flag].value!r}): the "
                "plan's command passes no such flag (it sets LOCAL_RANK), so every process of "
                "a node picks the same device",
                f'args.{flag} = int(os.environ["LOCAL_RANK"]) before choosing the device',
                "device_not_local_rank",
            )
            continue
        if _global_rank(src, index) and not _under_spawn(src, call) and not _off(plan, call):
            said.add(src.function_of(call))
            yield src.finding(
                _statement(src, call),
                f"the GPU index is the global rank ({ast.unparse(index)}): on node 1 of the "
                f"plan's {plan.nodes} ranks {plan.gpus_per_node}..{plan.world - 1} ask for GPUs "
                f"a node of {plan.gpus_per_node} does not have",
                'use the local rank: int(os.environ["LOCAL_RANK"])',
                "device_not_local_rank",
            )


def _off(plan: CheckPlan, node: ast.AST) -> bool:
    """Never reached under the plan's command and environment."""
    return plan.flow is not None and plan.flow.off(node) is not None


def _flag_default(plan: CheckPlan, index: ast.AST) -> str | None:
    """`args.local_rank` left at its default under the plan's command: the flag's name."""
    if plan.flow is None or not plan.flow._is_args(index):
        return None
    dest = index.attr  # type: ignore[attr-defined]
    value = plan.flow.args.get(dest)
    if "local" not in dest or value is None or dest not in value.flags:
        return None
    return dest if value.known else None


def _means_gpu(call: ast.Call) -> bool:
    name = dotted(call.func)
    if name.endswith("current_accelerator") or name.endswith(".cuda"):
        return True
    first = constant(call.args[0]) if call.args else None
    return isinstance(first, str) and first.startswith("cuda") and first in ("cuda", "cuda:0")


def _device_index(name: str, call: ast.Call) -> ast.AST | None:
    last = name.split(".")[-1]
    if last == "DistributedDataParallel" or last == "DDP":
        ids = keyword(call, "device_ids")
        if isinstance(ids, ast.List) and len(ids.elts) == 1:
            return ids.elts[0]
    if (
        last in _INDEXED
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Name | ast.Attribute)
    ):
        return call.args[0]
    return None


def _global_rank(src: ScriptFacts, node: ast.AST) -> bool:
    """A name that holds the global rank: `rank` read from RANK or get_rank()."""
    if not isinstance(node, ast.Name) or "local" in node.id.lower():
        return False
    if node.id not in ("rank", "global_rank", "world_rank"):
        return False
    fn = src.function_of(node)
    scope = fn if fn is not None else src.module_of[node].tree
    for sub in ast.walk(scope):
        if isinstance(sub, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == node.id for t in sub.targets
        ):
            text = ast.dump(sub.value)
            return "'RANK'" in text or "get_rank" in text
    # a parameter: what its callers pass
    return fn is not None and any(
        any(isinstance(a, ast.Name) and _global_rank(src, a) for a in c.args)
        for c in src.callers(fn)
        if src.function_of(c) is not fn
    )


def sampler_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    loaders = src.find("DataLoader")
    samplers = src.find("DistributedSampler", "ElasticDistributedSampler")
    sharded = src.has("DistributedSampler", "split_dataset_by_node", "shard", "num_replicas")
    if loaders and not samplers and not sharded:
        yield src.finding(
            loaders[0],
            f"a DataLoader without a DistributedSampler: each of the {plan.world} ranks reads "
            "the whole dataset every epoch",
            "DataLoader(dataset, sampler=DistributedSampler(dataset), ...)",
            "no_distributed_sampler",
        )
    shuffled = [s for s in samplers if constant(keyword(s, "shuffle")) is not False]
    if shuffled and not src.find("set_epoch"):
        yield src.finding(
            shuffled[0],
            "DistributedSampler without set_epoch(): every epoch shuffles the same way",
            "sampler.set_epoch(epoch) at the start of each epoch",
            "sampler_no_set_epoch",
            "warning",
        )


_SAVES = ("save_checkpoint", "save_model", "save_pretrained", "save_weights")
_LOGS = ("log_metric", "log_metrics", "log_param", "log_params", "log_artifact")
_ENGINES = ("engine", "trainer", "accelerator", "model_engine", "ds_")


def _engines(src: ScriptFacts) -> set[str]:
    """Names bound to what an engine maker returns (`model, opt, _, _ = deepspeed.initialize(…)`):
    their save_checkpoint is collective, every rank must call it."""
    names: set[str] = set()
    for call in src.find("initialize", "prepare"):
        parent = src.parents.get(call)
        if isinstance(parent, ast.Assign):
            for target in parent.targets:
                first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
                if isinstance(first, ast.Name):
                    names.add(first.id.lower())
    return names


def _wraps_a_save(src: ScriptFacts, call: ast.AST) -> bool:
    """`with open(p, "wb") as f: torch.save(x, f)`: the save is the write that counts."""
    item = src.parents.get(call)
    block = src.parents.get(item) if isinstance(item, ast.withitem) else None
    if not isinstance(block, ast.With):
        return False
    return any(
        isinstance(n, ast.Call) and dotted(n.func).split(".")[-1] in ("save", *_SAVES)
        for stmt in block.body
        for n in ast.walk(stmt)
    )


def write_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Checkpoints and files written by every rank into the same path (a guard in a caller
    covers the callee)."""
    engines = _engines(src)
    for name, call in src.calls:
        last = name.split(".")[-1]
        receiver = name.rpartition(".")[0].lower()
        engine = receiver in engines or any(e in receiver for e in _ENGINES)
        saving = name == "torch.save" or (last in _SAVES and not engine)
        if last == "save" and receiver and receiver.split(".")[-1] in ("model", "net"):
            saving = True
        if last == "open" and name in ("open", "builtins.open"):
            mode = constant(keyword(call, "mode", 1))
            saving = isinstance(mode, str) and "w" in mode and "rank" not in ast.dump(call)
            saving = saving and not _wraps_a_save(src, call)
        if not saving or src.guarded_by_rank(call) or _off(plan, call):
            continue
        yield src.finding(
            call,
            f"{name}() runs on all {plan.world} ranks: each writes the same file at once "
            "(a torn or clobbered checkpoint)",
            "only on rank 0: `if int(os.environ.get('RANK', 0)) == 0:`",
            "unguarded_write",
        )


class PyTorch(Framework):
    """PyTorch DistributedDataParallel."""

    name = "pytorch"
    title = "PyTorch DDP"
    tagline = "DistributedDataParallel; most jobs"
    launchers = (TORCHRUN_LAUNCHER,)
    origins = (TORCHRUN,)
    packages = (Package("torch", "torch", "torch"),)
    assumed_modules = ("torch",)
    example = "pytorch-ddp"
    sample_script = "train_ddp.py"
    guess_order = 1000  # what a job is when nothing says otherwise
    mechanisms = ("init_process_group", "DistributedDataParallel", "torchrun", "DataLoader")
    script_rules = (process_group_rules, data_rules, write_rules)

    def launcher(self, spec: JobSpec) -> Launcher | None:
        return TORCHRUN_LAUNCHER if spec.launch == "per_node" else None

    def why(self, step: str, spec: JobSpec) -> str:
        if step == "code":
            return (
                "**Shared memory**: PyTorch DataLoader workers pass batches through /dev/shm; "
                "Azure ML's 2 GB default makes them crash with *Bus error*, so 16g is the "
                "default here.\n\n"
                "**NCCL_DEBUG=INFO** prints `NET/IB` in the log when InfiniBand is really used."
            )
        if step == "framework":
            world = spec.nodes * spec.gpus_per_node
            return (
                "PyTorch DDP keeps a full copy of the model on every GPU. Each process trains on "
                "its own slice of the data and the gradients are averaged with an all-reduce "
                f"after every step, so {world} GPUs see {world}× the data per step."
            )
        return ""

    def recognises(self, distribution: str, command: str) -> bool:
        return True

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        changes: dict[str, Any] = {"script": self.sample_script}
        if not spec.args:
            changes["args"] = ("--epochs", "3")
        return changes
