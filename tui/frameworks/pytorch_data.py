"""PyTorch's script-check rules for what each process does with its GPU, its data and its
files: the GPU chosen by local rank, the model wrapped, the data sharded by a
DistributedSampler and reshuffled each epoch, and checkpoints written by one rank (a guard in
a caller covers the callee)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.frameworks.pytorch_sampler import sampler_rules
from tui.frameworks.pytorch_script import WRAPS, gating_flags, setup_calls, under_spawn
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts, constant, dotted, keyword, mentions_rank
from tui.scripts.flow import command_flags
from tui.scripts.places import place


def data_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """LOCAL_RANK picks the device; the model wrapped; a DistributedSampler, and `set_epoch`
    each epoch."""
    yield from device_rules(src, plan)
    if not setup_calls(src):
        return  # the process group's fix brings the wrap and the sampler
    yield from shard_rules(src, plan)
    by_hand = any("grad" in ast.dump(c) for c in src.find("all_reduce", "allreduce"))
    wrapped = src.find(*WRAPS) or src.has(*WRAPS) or _given_device_ids(src)
    if not wrapped and not by_hand:
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


def device_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """The GPU chosen by local rank: not GPU 0 in every process, not the global rank."""
    if not plan.gpus:
        return
    indexed = list(indexed_device_rules(src, plan))
    yield from indexed
    if indexed or src.has(*_LOCAL_WORDS) or _device_from_setup(src):
        return
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
        if _global_rank(src, index) and not under_spawn(src, call) and not plan.off(call):
            said.add(src.function_of(call))
            yield src.finding(
                src.statement(call),
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
    for module in src.modules:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Subscript):
                picked = _node_local(node.slice) and not dotted(node.value).endswith("environ")
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                picked = _node_local(node.left) or _node_local(node.right)
            else:
                continue
            fn = src.function_of(node)
            if not picked or fn is None or fn in done or not src.runs(node):
                continue
            words = {getattr(n, "id", None) or getattr(n, "attr", "") for n in ast.walk(fn)}
            sized = any("world_size" in w.lower() or w == "get_world_size" for w in words)
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
    if (
        last in _INDEXED
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Name | ast.Attribute)
    ):
        return call.args[0]
    if last == "device" and len(call.args) == 2:  # torch.device("cuda", index)
        return call.args[1]
    if last == "device" and call.args and isinstance(call.args[0], ast.JoinedStr):
        parts = [v.value for v in call.args[0].values if isinstance(v, ast.FormattedValue)]
        return parts[0] if len(parts) == 1 else None  # torch.device(f"cuda:{index}")
    return None


def _global_rank(src: ScriptFacts, node: ast.AST, depth: int = 3) -> bool:
    """A name that holds the global rank: `rank` read from RANK or get_rank()."""
    if not isinstance(node, ast.Name) or "local" in node.id.lower() or depth < 0:
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
        any(isinstance(a, ast.Name) and _global_rank(src, a, depth - 1) for a in c.args)
        for c in src.callers(fn)
        if src.function_of(c) is not fn
    )


_SAVES = ("save_checkpoint", "save_model", "save_pretrained", "save_weights", "save_image")
_ENGINES = ("engine", "trainer", "accelerator", "model_engine", "ds_")


def _per_rank(call: ast.Call) -> bool:
    """A path named by the rank (`f"ckpt_{rank}.pt"`): each rank writes its own file."""
    return any(
        isinstance(n, ast.Name | ast.Attribute)
        and "rank" in (getattr(n, "id", "") or n.attr).lower()  # type: ignore[attr-defined]
        for arg in call.args[dotted(call.func).endswith(("torch.save", "save_image")) :]
        + [k.value for k in call.keywords]
        for n in ast.walk(arg)
    )


def _own_file(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> bool:
    """A path whose name is built from the rank, the process id or a clock to the microsecond
    (followed through the names and parameters it comes from): each process has its own."""
    at = 1 if dotted(call.func).endswith(("torch.save", "save_image")) else 0
    path = keyword(call, "f") or (call.args[at] if len(call.args) > at else None)
    where = place(src, plan, path)
    return where.per_rank or where.unique


def _engines(src: ScriptFacts) -> set[str]:
    """Names bound to what an engine maker returns (`model, opt, _, _ = deepspeed.initialize(…)`):
    their save_checkpoint is collective, every rank must call it. Not `accelerator.prepare`'s:
    its model's save_pretrained() writes from every rank that calls it."""
    names: set[str] = set()
    for call in src.find("initialize"):  # accelerator.prepare's model is the user's module
        parent = src.parents.get(call)
        if isinstance(parent, ast.Assign):
            for target in parent.targets:
                first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
                if isinstance(first, ast.Name | ast.Attribute):  # engine, or model.network
                    names.add(dotted(first).lower())
    return names


def _downloading(src: ScriptFacts, call: ast.Call) -> bool:
    """A write in a download or cache function (`get_from_cache`, `download_file`): several
    ranks fetching the same data race, but RULES.md does not count downloads as writes."""
    fn = src.function_of(call)
    return fn is not None and any(w in fn.name.lower() for w in ("download", "cache"))


def _made_on_one_rank(src: ScriptFacts, call: ast.Call) -> bool:
    """`saver.save_checkpoint()` where `saver` is None except where a rank test made it
    (`saver = None; if rank == 0: saver = CheckpointSaver(…)`): only that rank can call it."""
    held = call.func.value if isinstance(call.func, ast.Attribute) else None
    if not isinstance(held, ast.Name):
        return False
    scope = src.function_of(call) or src.module_of[call].tree
    made = [
        n
        for n in ast.walk(scope)
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == held.id for t in n.targets)
        and not (isinstance(n.value, ast.Constant) and n.value.value is None)
    ]
    return bool(made) and all(src.guarded_by_rank(n) for n in made)


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


_BUFFERS = ("BytesIO", "StringIO")


def _everyone_passes(src: ScriptFacts, plan: CheckPlan, call: ast.AST) -> bool:
    """The rank test right around `call` is true in every process: it reads only a flag the
    plan's command does not pass (`args.local_rank in [-1, 0]` with --local_rank left at -1),
    nothing the launcher sets per process."""
    current, child = src.parents.get(call), call
    while current is not None and plan.flow is not None:
        if isinstance(current, ast.If) and mentions_rank(current.test, src.rank_words):
            test = plan.flow.value_at(current.test)
            if not (
                test.known
                and test.value is True
                and command_flags(test.flags)
                and child in current.body
            ):
                return False
            names = [n for n in ast.walk(current.test) if isinstance(n, ast.Name | ast.Attribute)]
            return not any("environ" in dotted(n) or plan.flow.value_at(n).env for n in names)
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            return False
        current, child = src.parents.get(current), current
    return False


def _alternatives(src: ScriptFacts, one: ast.AST, other: ast.AST) -> bool:
    """`one` and `other` in the two branches of one `if` (`save(model.module)` else
    `save(model)`): only one of them runs, so they are one write."""
    child, current = one, src.parents.get(one)
    while current is not None:
        if isinstance(current, ast.If):
            mine, theirs = (
                (current.body, current.orelse)
                if child in current.body
                else (current.orelse, current.body)
            )
            if child in mine and any(other is n for s in theirs for n in ast.walk(s)):
                return True
        child, current = current, src.parents.get(current)
    return False


def _a_parameter(src: ScriptFacts, call: ast.Call) -> bool:
    """`def serve(save_model, ...): return save_model(...)`: the name is the function's own
    parameter, whatever value its caller passes (a model), not a save function."""
    fn = src.function_of(call)
    if not isinstance(call.func, ast.Name) or fn is None:
        return False
    params = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    return any(a.arg == call.func.id for a in params)


def _into_memory(src: ScriptFacts, call: ast.Call) -> bool:
    """`with io.BytesIO() as f: torch.save(x, f)` (or `f = io.BytesIO()`): the bytes stay in
    the process (to be broadcast), nothing reaches a disk. The binding of the target name
    nearest before the call decides."""
    target = keyword(call, "f", 1)
    if not isinstance(target, ast.Name):
        return False
    scope = src.function_of(call) or src.module_of[call].tree
    bindings: list[tuple[int, ast.AST]] = []
    for n in ast.walk(scope):
        pairs: list[tuple[ast.AST | None, ast.AST]] = []
        if isinstance(n, ast.With):
            pairs = [(item.optional_vars, item.context_expr) for item in n.items]
        elif isinstance(n, ast.Assign):
            pairs = [(t, n.value) for t in n.targets]
        bindings += [
            (n.lineno, value)
            for name, value in pairs
            if isinstance(name, ast.Name) and name.id == target.id and n.lineno <= call.lineno
        ]
    if not bindings:
        return False
    value = max(bindings, key=lambda b: b[0])[1]
    return isinstance(value, ast.Call) and dotted(value.func).split(".")[-1] in _BUFFERS


def write_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Checkpoints and files written by every rank into the same path (a guard in a caller
    covers the callee), in the order of the files' lines."""
    found = list(_writes(src, plan))
    yield from sorted(found, key=lambda f: (f.file != src.modules[0].file, f.file, f.line or 0))


def _writes(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    engines = _engines(src)
    said: list[ast.Call] = []
    for name, call in src.calls:
        last = name.split(".")[-1]
        receiver = name.rpartition(".")[0].lower()
        engine = receiver in engines or any(e in receiver for e in _ENGINES)
        # DeepSpeed's engine.save_checkpoint(save_dir, tag=…, client_state=…) is collective
        engine = engine or any(k.arg in ("tag", "client_state") for k in call.keywords)
        # The script's own save_checkpoint() (a function or method of its code, reached by
        # name or through an import of its code folder): its body's writes are checked.
        own = last in src.functions and (name == dotted(call.func) or src.local(name))
        saving = name == "torch.save" or (last in _SAVES and not engine and not own)
        if last == "save" and receiver and receiver.split(".")[-1] in ("model", "net"):
            saving = True
        if last == "open" and name in ("open", "builtins.open"):
            mode = constant(keyword(call, "mode", 1))
            saving = isinstance(mode, str) and "w" in mode and "rank" not in ast.dump(call)
            saving = saving and not _wraps_a_save(src, call)
            saving = (
                saving
                and not any(  # the null device keeps nothing
                    "devnull" in dotted(a) or constant(a) == "/dev/null" for a in call.args[:1]
                )
            )
        told = any(  # is_main_process=…, save_function=accelerator.save (main process only)
            mentions_rank(k.value) or k.arg in ("is_main_process", "save_function")
            for k in call.keywords
        )
        if not saving or told or plan.off(call) or _per_rank(call):
            continue
        if src.guarded_by_rank(call) and not _everyone_passes(src, plan, call):
            continue
        if _own_file(src, plan, call) or _made_on_one_rank(src, call) or _downloading(src, call):
            continue
        if _into_memory(src, call) or _a_parameter(src, call):
            continue
        if any(_alternatives(src, call, other) for other in said):
            continue
        said.append(call)
        yield src.finding(
            call,
            f"{name}() runs on all {plan.world} ranks: each writes the same file at once"
            + ("" if last == "open" else " (a torn or clobbered checkpoint)"),
            "only on rank 0: `if int(os.environ.get('RANK', 0)) == 0:`",
            "unguarded_write",
        )
