"""PyTorch's script-check rules for what each process does with its GPU and its data: the GPU
chosen by local rank, the model wrapped, the data sharded by a DistributedSampler and reshuffled
each epoch (what each rank writes: tui/frameworks/pytorch_writes.py)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tui.frameworks.launch_env import env_writes
from tui.frameworks.pytorch_sampler import sampler_rules
from tui.frameworks.pytorch_script import WRAPS, gating_flags, setup_calls, under_spawn
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.syntax import constant, dotted, keyword


def data_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """LOCAL_RANK picks the device; the model wrapped; a DistributedSampler, and `set_epoch`
    each epoch."""
    yield from device_rules(src, plan)
    if not setup_calls(src):
        return  # the process group's fix brings the wrap and the sampler
    yield from shard_rules(src, plan)
    by_hand = any("grad" in ast.dump(c) for c in src.find("all_reduce", "allreduce"))
    wrapped = src.find(*WRAPS) or src.has(*WRAPS) or _given_device_ids(src) or _own_engine(src)
    trains = src.find("backward", "zero_grad")  # a benchmark of collectives has no model
    if not wrapped and not by_hand and trains:
        yield src.finding(
            None,
            "the model is never wrapped in DistributedDataParallel: gradients are not "
            f"averaged, so the {plan.world} copies drift apart",
            "model = DistributedDataParallel(model, device_ids=[local_rank])",
            "no_ddp_wrap",
        )
    yield from sampler_rules(src, plan)


_LOCAL_WORDS = (
    "LOCAL_RANK",
    "local_rank",
    "OMPI_COMM_WORLD_LOCAL_RANK",
    "local_process_index",
    "init_device_mesh",  # sets each process's device by its local rank
)
_DEVICE_CHOICES = (
    *("current_accelerator", "torch.device", "cuda", "set_device", "set_device_index"),
    "to",  # net.to(device) where device is "cuda" under the plan
)
_INDEXED = ("set_device", "set_device_index", "to", "cuda")


def _own_engine(src: ScriptFacts) -> bool:
    """A class named for data parallelism that is not torch's one-process `DataParallel`: a
    library's or the code folder's own DDP (picotron's `DataParallelBucket`, fairscale's
    `ShardedDataParallel`), whose averaging a reader of the script cannot see."""
    return any(
        "DataParallel" in (last := name.split(".")[-1]) and last != "DataParallel"
        for name, _ in src.calls
    )


def _given_device_ids(src: ScriptFacts) -> bool:
    """A call given `device_ids=`: only a DDP-like wrap takes them, whoever's it is (a library's
    `task.prepare_distributed(device_ids=[device])`)."""
    return any(keyword(call, "device_ids") is not None for _, call in src.calls)


def _device_from_setup(src: ScriptFacts) -> bool:
    """The device comes from a library's distributed set-up (`device =
    utils.init_distributed_device(args)`): a call named for both picks it by local rank."""
    for name, _ in src.calls:
        last = name.split(".")[-1].lower()
        if "distributed" in last and "device" in last:
            return True
    return False


def _set_by_a_value(src: ScriptFacts, plan: CheckPlan) -> bool:
    """The current GPU is set from a value, not a literal (`torch.cuda.set_device(gpu)` with a
    spawn's index, `set_device(rank % torch.cuda.device_count())`): the index rules judge the
    value; what is put on `cuda` after it goes to that GPU."""
    return any(
        c.args and not isinstance(c.args[0], ast.Constant) and not plan.off(c)
        for c in src.find("cuda.set_device", "set_device_index")
    )


def device_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """The GPU chosen by local rank: not GPU 0 in every process, not the global rank."""
    if not plan.gpus:
        return
    indexed = [*indexed_device_rules(src, plan), *device_map_rules(src, plan)]
    yield from indexed
    shown = [(value, at) for key, value, at in env_writes(src) if key == "CUDA_VISIBLE_DEVICES"]
    yield from _fixed_gpus(src, shown, plan)
    if indexed or shown or src.has(*_LOCAL_WORDS) or _device_from_setup(src):
        return  # (CUDA_VISIBLE_DEVICES written: each process is shown its GPU, "cuda" is it)
    if _set_by_a_value(src, plan):
        return  # `torch.cuda.set_device(gpu)`, a spawn's index: "cuda" after it is that GPU
    chosen = [c for c in src.find(*_DEVICE_CHOICES) if _means_gpu(c, plan, src) and not plan.off(c)]
    chosen.sort(key=lambda c: (src.file(c) != src.modules[0].file, c.lineno))
    if chosen:
        yield src.finding(
            chosen[0],
            f"the device is chosen without the local rank: the {plan.gpus_per_node} "
            "processes of a node all use GPU 0",
            'torch.cuda.set_device(int(os.environ["LOCAL_RANK"])) and use that device',
            "device_not_local_rank",
        )


def _fixed_gpus(
    src: ScriptFacts, shown: list[tuple[ast.AST, ast.AST]], plan: CheckPlan
) -> Iterator[Finding]:
    """`os.environ["CUDA_VISIBLE_DEVICES"] = "0"`: every process of a node is shown the same
    GPUs, fewer than the node's processes, so they share them and the rest stay idle."""
    per_node = plan.world // max(1, plan.nodes)
    for value, at in shown:
        text = constant(value)
        if not isinstance(text, str) or text.strip() in ("", "-1") or plan.off(at):
            continue  # no GPU at all (a CPU run), or not under the plan
        if per_node > 1 and len(text.split(",")) < per_node:
            yield src.finding(
                at,
                f"CUDA_VISIBLE_DEVICES is set to {text!r} in every process: the {per_node} "
                f"processes of a node all share {'that GPU' if ',' not in text else 'those GPUs'}"
                " and the node's others stay idle",
                "leave CUDA_VISIBLE_DEVICES to the plan and use GPU int(os.environ['LOCAL_RANK'])",
                "device_not_local_rank",
            )


_GLOBAL_INDEX = ("process_index", "get_rank")
"""What gives the global rank where a device is asked for (Accelerate's `process_index`)."""


def device_map_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`from_pretrained(…, device_map={"": Accelerator().process_index})`: the global rank as
    the GPU, right on one node, a device that does not exist on the others."""
    if not plan.gpus or plan.nodes <= 1:
        return
    for _, call in src.calls:
        given = keyword(call, "device_map")
        if given is None or plan.off(call):
            continue
        named = [dotted(n) for n in ast.walk(given) if isinstance(n, ast.Attribute | ast.Call)]
        if any(n.split(".")[-1].removesuffix("()") in _GLOBAL_INDEX for n in named) or any(
            _global_rank(src, n) for n in ast.walk(given)
        ):
            yield src.finding(
                src.statement(call),
                "device_map places the model on the GPU of the global rank: on node 1 and later "
                f"that is cuda:{plan.gpus_per_node} and up, which does not exist "
                f"({plan.gpus_per_node} GPUs a node)",
                'device_map={"": Accelerator().local_process_index} (or int(os.environ'
                '["LOCAL_RANK"]))',
                "device_not_local_rank",
            )


def indexed_device_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A GPU index that is a --local_rank flag's default, or the global rank."""
    said: set[object] = set(gating_flags(src, plan))  # that finding's fix sets the device
    for name, call in src.calls:
        index = _device_index(name, call)
        if index is None or src.function_of(call) in said:
            continue
        flag = _flag_default(plan, index)
        if flag is not None and not plan.off(call):
            said.add(src.function_of(call))
            if flag in said:
                continue  # one finding per flag: the fix is the same wherever it is used
            said.add(flag)
            yield src.finding(
                src.statement(call),
                f"the GPU index is --{flag}'s default ({plan.flow.value_at(index).value!r}): the "
                "plan's command passes no such flag (it sets LOCAL_RANK), so every process of "
                "a node picks the same device",
                f'{ast.unparse(index)} = int(os.environ["LOCAL_RANK"]) before choosing the device',
                "device_not_local_rank",
            )
            continue
        if (k := _modulo(index)) and k != plan.gpus_per_node and not plan.off(call):
            if _global_rank(src, index.left):  # type: ignore[attr-defined]
                said.add(src.function_of(call))
                yield src.finding(
                    src.statement(call),
                    f"the GPU index is the global rank modulo {k} ({ast.unparse(index)}), but "
                    f"the plan's nodes have {plan.gpus_per_node} GPUs each: "
                    + (
                        f"GPUs {k}..{plan.gpus_per_node - 1} stay idle while ranks share GPUs "
                        f"0..{k - 1}"
                        if k < plan.gpus_per_node
                        else f"ranks ask for GPUs a node of {plan.gpus_per_node} does not have"
                    ),
                    'use the local rank: int(os.environ["LOCAL_RANK"])',
                    "device_not_local_rank",
                )
            continue
        if _global_rank(src, index) and not under_spawn(src, call) and not plan.off(call):
            said.add(src.function_of(call))
            if (held := ("rank", ast.unparse(index))) in said:
                continue  # the same rank passed on to another function: the same fix
            said.add(held)
            yield src.finding(
                _chosen_at(src, index) or src.statement(call),
                f"the GPU index is the global rank ({ast.unparse(index)}): on node 1 of the "
                f"plan's {plan.nodes} ranks {plan.gpus_per_node}..{plan.world - 1} ask for GPUs "
                f"a node of {plan.gpus_per_node} does not have",
                'use the local rank: int(os.environ["LOCAL_RANK"])',
                "device_not_local_rank",
            )


def shard_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Data cut in world-size shares, the share picked by the local rank (`per_worker *
    local_rank`, `parts[local_rank]`): every node takes the first node's shares."""
    if plan.nodes <= 1:
        return
    done: set[ast.AST] = set()
    sized_by: dict[ast.AST, bool] = {}
    for module in src.modules:
        for node in module.nodes:
            if isinstance(node, ast.Subscript):
                picked = _node_local(node.slice) and not dotted(node.value).endswith("environ")
                picked = picked and not _holds_global_rank(src, node.slice)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                local = [n for n in (node.left, node.right) if _node_local(n)]
                picked = bool(local) and not _holds_global_rank(src, local[0])
            elif isinstance(node, ast.Call) and (rank := keyword(node, "rank")) is not None:
                # `DistributedSampler(ds, num_replicas=world_size, rank=args.local_rank)`, and
                # `rank=rank` where rank holds LOCAL_RANK
                local = _node_local(rank) or _holds_local_rank(src, rank)
                picked = local and not _holds_global_rank(src, rank)
            else:
                continue
            fn = src.function_of(node)
            if not picked or fn is None or fn in done or not src.runs(node) or plan.off(node):
                continue
            if fn not in sized_by:  # each function's names read once
                words = {getattr(n, "id", None) or getattr(n, "attr", "") for n in ast.walk(fn)}
                sized_by[fn] = any(
                    "world_size" in w.lower() or w == "get_world_size" for w in words
                )
            # a sampler given no num_replicas cuts the group's world size of shares
            defaulted = isinstance(node, ast.Call) and keyword(node, "num_replicas") is None
            sized = sized_by[fn] or defaulted
            text = ast.dump(src.statement(node)).lower()
            if not sized or any(w in text for w in ("cuda", "device", "gpu")):
                continue
            done.add(fn)
            yield src.finding(
                node,
                f"the data is cut into world-size ({plan.world}) shares but the share is picked "
                f"by the local rank (0..{plan.gpus_per_node - 1}): every node trains on the "
                "first node's shares and the rest of the data is never read",
                'pick the share by the global rank: int(os.environ["RANK"])',
                "rank_not_from_env",
            )


def _holds_global_rank(src: ScriptFacts, node: ast.AST) -> bool:
    """A name called `local_rank` that the code last gave the global rank before `node`
    (`local_rank = misc.get_rank()`): its name says local, its value is not."""
    value = _last_value(src, node)
    return value is not None and _rank_call(value)


def _holds_local_rank(src: ScriptFacts, node: ast.AST) -> bool:
    """A name the code gave the launcher's LOCAL_RANK before `node`, and else only constants
    (`rank = int(os.environ.get("LOCAL_RANK", 0))` when distributed, `rank = 0` when not):
    whatever it is called, it is the node's rank."""
    values = _values(src, node)
    local = [v for v in values if any(_says(n, "LOCAL_RANK") for n in ast.walk(v))]
    return bool(local) and all(v in local or isinstance(v, ast.Constant) for v in values)


def _says(node: ast.AST, text: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == text


def _values(src: ScriptFacts, node: ast.AST) -> list[ast.AST]:
    """What the name `node` was given before it, in its function (or module), in order."""
    if not isinstance(node, ast.Name):
        return []
    made = src.assigns(src.function_of(node) or src.module_of[node].tree).get(node.id, ())
    return [a.value for a in made if a.lineno < node.lineno]


def _last_value(src: ScriptFacts, node: ast.AST) -> ast.AST | None:
    values = _values(src, node)
    return values[-1] if values else None


def _node_local(node: ast.AST) -> bool:
    name = getattr(node, "id", None) or getattr(node, "attr", "")
    return isinstance(node, ast.Name | ast.Attribute) and "local_rank" in name.lower()


def _flag_default(plan: CheckPlan, index: ast.AST) -> str | None:
    """`args.local_rank` (or a `local_rank` parameter of the command's function) left at its
    default under the plan's command: the flag's name."""
    if plan.flow is None or not isinstance(index, ast.Name | ast.Attribute):
        return None
    if isinstance(index, ast.Attribute) and not plan.flow._is_args(index):
        return None
    value = plan.flow.value_at(index)
    flags = [f for f in value.flags if "local" in f]
    return flags[0] if value.known and flags else None


def _means_gpu(call: ast.Call, plan: CheckPlan, src: ScriptFacts) -> bool:
    """A call that picks GPU 0 (or "cuda", which is GPU 0): `torch.device("cuda:0" if … else
    "cpu")` as the plan's command leaves it, `.cuda()`, `current_accelerator()`."""
    name = dotted(call.func)
    if name.endswith("current_accelerator"):
        return not isinstance(src.parents.get(call), ast.Attribute)  # `.type`: a kind, not GPU 0
    if name.endswith(".cuda") and not call.args:
        return True
    if name.endswith(".to") and call.args and plan.flow is not None:  # net.to(device)
        return plan.flow.value_at(call.args[0]).value in ("cuda", "cuda:0")
    if not name.endswith("device") or not call.args:
        return False
    first = call.args[0]
    value = plan.flow.value_at(first).value if plan.flow is not None else None
    if isinstance(value, str):
        return value in ("cuda", "cuda:0")
    return any(
        isinstance(n, ast.Constant) and n.value in ("cuda", "cuda:0") for n in ast.walk(first)
    )


def _device_index(name: str, call: ast.Call) -> ast.AST | None:
    last = name.split(".")[-1]
    if last == "DistributedDataParallel" or last == "DDP":
        ids = keyword(call, "device_ids")
        if isinstance(ids, ast.List) and len(ids.elts) == 1:
            return ids.elts[0]
    if last in _INDEXED and len(call.args) == 1:
        arg = call.args[0]
        if isinstance(arg, ast.Name | ast.Attribute) or _rank_call(arg) or _modulo(arg):
            return arg
    if last == "device" and len(call.args) == 2:  # torch.device("cuda", index)
        return call.args[1]
    if last == "device" and call.args and isinstance(call.args[0], ast.JoinedStr):
        parts = [v.value for v in call.args[0].values if isinstance(v, ast.FormattedValue)]
        return parts[0] if len(parts) == 1 else None  # torch.device(f"cuda:{index}")
    return None


def _chosen_at(src: ScriptFacts, index: ast.AST) -> ast.AST | None:
    """Where a device name was given the rank (`device = rank`), the line that chose it."""
    if not isinstance(index, ast.Name):
        return None
    made = src.assigns(src.function_of(index) or src.module_of[index].tree).get(index.id, ())
    return next((a for a in made if isinstance(a.value, ast.Name)), None)


_RANK_KEY = re.compile(r"'(?:(?!LOCAL)[A-Z]+_)*RANK'")
"""An environment key of a process's global rank: `RANK`, Open MPI's `OMPI_COMM_WORLD_RANK`."""


def _modulo(node: ast.AST) -> int | None:
    """K of `rank % K`, K a whole number the script wrote (its own cluster's GPUs a node)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        k = constant(node.right)
        return k if isinstance(k, int) and not isinstance(k, bool) and k > 0 else None
    return None


def _rank_call(node: ast.AST) -> bool:
    """`dist.get_rank()`, `misc.get_rank()`: the global rank, asked for."""
    return isinstance(node, ast.Call) and dotted(node.func).split(".")[-1] == "get_rank"


def _global_rank(src: ScriptFacts, node: ast.AST, depth: int = 3) -> bool:
    """A name that holds the global rank: `rank` read from RANK or get_rank(), or a name given
    such a one (`device = rank`); or get_rank() itself."""
    if _rank_call(node):
        return True
    if not isinstance(node, ast.Name) or "local" in node.id.lower() or depth < 0:
        return False
    fn = src.function_of(node)
    scope = fn if fn is not None else src.module_of[node].tree
    for sub in ast.walk(scope):
        if isinstance(sub, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == node.id for t in sub.targets
        ):
            if isinstance(sub.value, ast.Name) and sub.value.id != node.id:
                return _global_rank(src, sub.value, depth - 1)  # `device = rank`
            if node.id not in ("rank", "global_rank", "world_rank"):
                return False
            text = ast.dump(sub.value)
            return _RANK_KEY.search(text) is not None or "get_rank" in text
    if node.id not in ("rank", "global_rank", "world_rank"):
        return False
    # a parameter: what its callers pass
    return fn is not None and any(
        any(isinstance(a, ast.Name) and _global_rank(src, a, depth - 1) for a in c.args)
        for c in src.callers(fn)
        if src.function_of(c) is not fn
    )
