"""The script-check rule for what every rank writes, in every torch-based framework:
checkpoints and files written into the same path by every rank at once (`unguarded_write`); a
guard in a caller covers the callee, a rank test every process passes guards nothing, and a
write into memory, a per-rank name or a library's own main-process save is no clash."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts, mentions_rank
from tui.scripts.flow import command_flags
from tui.scripts.places import place
from tui.scripts.syntax import constant, dotted, keyword

_SAVES = ("save_checkpoint", "save_model", "save_pretrained", "save_weights", "save_image")
_COPIES = ("shutil.copy", "shutil.copyfile", "shutil.copy2")
_EXPORTS = ("to_csv", "to_json", "to_parquet", "save_to_disk", "to_json_file", "save_vocabulary")
"""A table's own writers (`log.to_csv(path)`): the path first (a plot's savefig is left out:
figures drawn on every rank are rarely the labels' concern)."""
_ARRAYS = ("numpy.save", "numpy.savez", "numpy.savez_compressed")
"""numpy's writers of arrays, the path first."""
_SECOND = ("torch.save", "save_image", *_COPIES)
"""Writes whose path is their second argument (`torch.save(obj, f)`, `shutil.copy(src, dst)`)."""
_ENGINES = ("engine", "trainer", "accelerator", "model_engine", "ds_")


_ONE_WRITER = ("transformers", "accelerate", "lightning", "pytorch_lightning", "deepspeed", "trl")
"""Libraries whose objects save from the main process only, or collectively (`Trainer.save_model`,
`engine.save_checkpoint`)."""


def _library_object(src: ScriptFacts, call: ast.Call) -> bool:
    """The receiver of `x.save_…(…)` is made by another library's call, or by its objects'
    methods (`trainer = hvd.DistributedTrainer(…)`, `net = get_model(…)` of gluoncv, `ds =
    load_dataset(…).map(…)`): its save writes from every process that calls it."""
    held = call.func.value if isinstance(call.func, ast.Attribute) else None
    origins = _origins(src, call, held, 4) if isinstance(held, ast.Name) else []
    imported = {v.split(".")[0] for v in src.module_of[call].aliases.values()}
    return bool(origins) and all(
        o.split(".")[0] in imported and o.split(".")[0] not in _ONE_WRITER and not src.local(o)
        for o in origins
    )


def _origins(src: ScriptFacts, at: ast.AST, name: ast.Name, depth: int) -> list[str]:
    """The calls (resolved) that made what `name` holds where `at` is, through the methods of
    what they made (`b = a.map(…)` is made where `a` was), `depth` steps at most."""
    module = src.module_of[at]
    scope = src.function_of(at) or module.tree
    made = src.assigns(scope).get(name.id) or src.assigns(module.tree).get(name.id, [])
    if len(made) > 3:
        return []  # a name given many values (`x = x.map(…)` over and over): not followed
    found: list[str] = []
    for n in made:
        value = n.value
        if not isinstance(value, ast.Call):
            return []
        receiver = value.func.value if isinstance(value.func, ast.Attribute) else None
        if isinstance(receiver, ast.Name) and receiver.id not in module.aliases and depth:
            found += _origins(src, n, receiver, depth - 1) or [""]
        else:
            found.append(module.resolve(dotted(value.func)))
    return found


def _per_example(src: ScriptFacts, call: ast.Call) -> bool:
    """In what a data set's `__getitem__` runs (`get_audio(filename)`, reached from it through
    `self.…()` calls): a cache of one example (`spec.pt` beside its `.wav`); each rank writes
    the examples of its own share, so no two write one file at once. (A whole set's
    preprocessing, run from `__init__`, is not: every rank writes the same file.)"""
    fn = src.function_of(call)
    cls = src.parents.get(fn) if fn is not None else None
    if not isinstance(cls, ast.ClassDef):
        return False
    if not any(dotted(b).split(".")[-1].endswith("Dataset") for b in cls.bases):
        return False
    methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
    reached, todo = set(), ["__getitem__"]
    while todo:
        name = todo.pop()
        if name in reached or name not in methods:
            continue
        reached.add(name)
        todo += [
            c.func.attr
            for c in ast.walk(methods[name])
            if isinstance(c, ast.Call)
            and isinstance(c.func, ast.Attribute)
            and isinstance(c.func.value, ast.Name)
            and c.func.value.id == "self"
        ]
    return fn.name in reached


def _per_rank(call: ast.Call) -> bool:
    """A path named by the rank (`f"ckpt_{rank}.pt"`): each rank writes its own file."""
    return any(
        isinstance(n, ast.Name | ast.Attribute)
        and "rank" in (getattr(n, "id", "") or n.attr).lower()  # type: ignore[attr-defined]
        for arg in call.args[dotted(call.func).endswith(_SECOND) :]
        + [k.value for k in call.keywords]
        for n in ast.walk(arg)
    )


def _own_file(src: ScriptFacts, plan: CheckPlan, call: ast.Call) -> bool:
    """A path whose name is built from the rank, the process id or a clock to the microsecond
    (followed through the names and parameters it comes from): each process has its own."""
    where = place(src, plan, _path_of(call))
    return where.per_rank or where.unique


def _path_of(call: ast.Call) -> ast.AST | None:
    at = 1 if dotted(call.func).endswith(_SECOND) else 0
    return keyword(call, "f") or (call.args[at] if len(call.args) > at else None)


def _copy_of(call: ast.Call, written: list[ast.Call]) -> bool:
    """`shutil.copyfile(filename, 'model_best.pth.tar')` of a file a write already said wrote
    (`torch.save(state, filename)`): the copy is part of that write's problem."""
    if dotted(call.func) not in _COPIES or not call.args:
        return False
    source = ast.dump(call.args[0])
    return any((path := _path_of(w)) is not None and ast.dump(path) == source for w in written)


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


def _everyone_passes(src: ScriptFacts, plan: CheckPlan, call: ast.AST, depth: int = 3) -> bool:
    """The rank test right around `call` (or around every call of its function) is true in
    every process: it reads only a flag the plan's command does not pass (`args.local_rank in
    [-1, 0]` with --local_rank left at -1), nothing the launcher sets per process."""
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
            if any("environ" in dotted(n) or plan.flow.value_at(n).env for n in names):
                return False
            # the rank the test reads is itself a flag's default (`args.local_rank`), not a
            # value the flow took from one branch (`master_process = True` off DDP)
            ranks = [n for n in names if mentions_rank(n, src.rank_words)]
            return all(command_flags(plan.flow.value_at(n).flags) for n in ranks)
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            callers = src.callers(current) if depth else []
            return bool(callers) and all(_everyone_passes(src, plan, c, depth - 1) for c in callers)
        current, child = src.parents.get(current), current
    return False


_HOOKS = re.compile(
    r"^(?:on_|configure_|setup|prepare_data|teardown|forward|__|save_model$|process$|download$)"
    r"|_(?:step|end|start)$"
)
"""Methods a framework calls by name: Lightning's hooks, a module's forward, dunders, a
Trainer's save_model, a graph data set's process and download."""


def _never_named(src: ScriptFacts, call: ast.Call) -> bool:
    """In a method that nothing in the script's code names (`decode()` of a solver that only
    an inference script calls) and no framework calls by its name: it does not run here."""
    fn = src.function_of(call)
    if fn is None or not isinstance(src.parents.get(fn), ast.ClassDef):
        return False
    return fn.name not in src.names and not _HOOKS.search(fn.name)


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


_PATHY = ("path", "dir", "file", "ckpt", "checkpoint", "out", "save", "name", "dest")


def _path_like(node: ast.AST | None) -> bool:
    """What `model.save(…)` is given first reads as a file's path (Keras's `model.save(filepath)`),
    not as a step (BasicSR's `model.save(epoch, current_iter)`: its own method, which writes where
    the script's options say, from whichever ranks its decorators let through)."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr | ast.Call | ast.BinOp):
        return True
    spelled = (getattr(node, "id", None) or getattr(node, "attr", "") or "").lower()
    return any(word in spelled for word in _PATHY)


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
        # `img.save(path)` of `img = Image.fromarray(…)`: another library's object writes too
        library = (last == "save" or last.startswith("save_")) and _library_object(src, call)
        engine = receiver in engines or (any(e in receiver for e in _ENGINES) and not library)
        # DeepSpeed's engine.save_checkpoint(save_dir, tag=…, client_state=…) is collective
        engine = engine or any(k.arg in ("tag", "client_state") for k in call.keywords)
        engine = engine or (  # save_checkpoint(save_dir, tag) of a script DeepSpeed runs
            last == "save_checkpoint" and len(call.args) >= 2 and src.imports_any("deepspeed")
        )
        # The script's own save_checkpoint() (a function or method of its code, reached by
        # name or through an import of its code folder): its body's writes are checked.
        own = last in src.functions and (name == dotted(call.func) or src.local(name))
        saving = name in ("torch.save", *_COPIES, *_ARRAYS) or (
            last in _SAVES and not engine and not own
        )
        saving = saving or (last in _EXPORTS and not own and bool(call.args or call.keywords))
        if (last == "save" and receiver and receiver.split(".")[-1] in ("model", "net")) or (
            library and not engine and not own and not saving
        ):  # `net.save_parameters(f"{save_dir}/…")`: a file's path, not a step (BasicSR's)
            saving = _path_like(call.args[0] if call.args else keyword(call, "filepath"))
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
        if not saving or told or plan.off(call) or _per_rank(call) or _never_named(src, call):
            continue
        if src.guarded_by_rank(call, off=plan.off) and not _everyone_passes(src, plan, call):
            continue
        if _own_file(src, plan, call) or _made_on_one_rank(src, call) or _downloading(src, call):
            continue
        if _into_memory(src, call) or _a_parameter(src, call) or _per_example(src, call):
            continue
        if any(_alternatives(src, call, other) for other in said) or _copy_of(call, said):
            continue
        said.append(call)
        yield src.finding(
            call,
            f"{name}() runs on all {plan.world} ranks: each writes the same file at once"
            + ("" if last == "open" else " (a torn or clobbered checkpoint)"),
            "only on rank 0: `if int(os.environ.get('RANK', 0)) == 0:`",
            "unguarded_write",
        )
