"""The script check's rules about files across nodes, for every framework: who writes what where
(`script_places`: the node's own folder, `outputs/` gathered after the job, a mounted datastore),
and whether whoever reads it is on the same node.

- data downloaded by global rank 0 only into a node-local folder: the other nodes lack it (or,
  after the barrier, all their ranks download it at once);
- data downloaded by every rank into the same folder: the ranks of a node race;
- a collective checkpoint (every rank writes its part: ZeRO / FSDP shards, each process's RNG
  state) into a node-local folder: the parts are scattered over the nodes;
- a collective checkpoint into a folder named from a clock or a random id: every process names
  its own, one save splits into many folders.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts, mentions_rank
from tui.scripts.places import AFTER, NODE, Place, place
from tui.scripts.syntax import constant, dotted, keyword, opens

_FETCHES = ("urlretrieve", "download_url", "download_and_extract_archive", "download_file")
_URL_FIRST = ("urlretrieve", "download_url", "download_and_extract_archive")
_PATH_WORDS = ("root", "path", "dest", "dest_path", "data_dir", "save_dir", "output_dir", "dir")
KERAS_CACHE = "~/.keras/datasets"
_COLLECTIVE = ("save_state", "save_checkpoint", "save_state_dict")
_DCP = ("distributed.checkpoint.save", "dcp.save", "checkpoint.save")
SHARED_FIX = (
    "download on each node's local rank 0 (`if int(os.environ['LOCAL_RANK']) == 0:` then a "
    "barrier), or give the data as an Azure ML input (mounted on every node)"
)


def file_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Every rule of this module, in the order of the lines they are about."""
    found = [*_downloads(src, plan), *_collective_saves(src, plan), *_one_rank_saves(src, plan)]
    yield from sorted(found, key=lambda f: (f.file, f.line or 0))


# ---- downloads ----------------------------------------------------------------------------


def _downloads(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    per_node = max(1, plan.world // max(1, plan.nodes))
    told: set[ast.AST] = set()
    for name, call in src.calls:
        asked = keyword(call, "download")
        fetch = name.split(".")[-1] in _FETCHES
        weights = _keras_weights(name, call)
        cached = _keras_cache(name) or weights
        if asked is None and not fetch and not cached:
            continue
        if asked is not None and constant(asked) in (False, None, 0):
            continue
        if plan.off(call) or any(
            _inside_with(src, call, w) for w in ("rank_zero_first", "FileLock")
        ):
            continue  # a trainer's rank_zero_first has its own rule; a file lock takes turns
        target = keyword(call, "path", 0) if cached else _path_arg(call)
        where = place(src, plan, target)
        if weights:
            where = Place(NODE, "~/.keras/models")
        elif cached and target is None:
            where = Place(NODE, KERAS_CACHE)
        elif cached and not where.per_rank:
            where = Place(NODE, f"{KERAS_CACHE}/{where.text or '...'}")
        if where.where not in (NODE, AFTER) or where.per_rank:
            continue  # shared, unknown, or each rank its own folder
        kind, guard = _who(src, call, asked)
        if kind == "global" and plan.nodes > 1 and guard not in told:
            told.add(guard)
            yield src.finding(
                guard,
                f"only global rank 0 downloads the data into {where.text or 'a folder'} on its "
                f"own node (each node has its own working folder): the ranks of the other "
                f"{plan.nodes - 1} node(s) find none there"
                + (", and all download it at once after the barrier" if _barrier(guard) else ""),
                SHARED_FIX,
                "node_local_file_from_rank0",
            )
        elif kind == "every" and per_node > 1:
            yield src.finding(
                call,
                f"every rank downloads the data into {where.text or 'the same folder'}: the "
                f"{per_node} ranks of a node write the same files at once (a torn or "
                "half-written dataset)",
                SHARED_FIX.replace("download on", "download once on"),
                "download_race",
                "warning",
            )


def _keras_cache(name: str) -> bool:
    """Keras' `datasets.<name>.load_data()`: it downloads into the home folder's cache
    (KERAS_CACHE, on the node's own disk) when the file is not there yet."""
    parts = name.split(".")
    return parts[-1] == "load_data" and "datasets" in parts and "keras" in parts


def _keras_weights(name: str, call: ast.Call) -> bool:
    """`keras.applications.VGG16(weights="imagenet")` (the default): Keras downloads the weight
    file into the home folder's cache (KERAS_CACHE) when it is not there yet, with no lock."""
    parts = name.split(".")
    if "applications" not in parts[:-1] or "keras" not in parts or not parts[-1][:1].isupper():
        return False
    weights = keyword(call, "weights")
    return weights is None or constant(weights) == "imagenet"


def _path_arg(call: ast.Call) -> ast.AST | None:
    for word in _PATH_WORDS:
        found = keyword(call, word)
        if found is not None:
            return found
    if dotted(call.func).split(".")[-1] in _URL_FIRST:  # (url, where)
        return call.args[1] if len(call.args) > 1 else None
    return call.args[0] if call.args else None


def _who(src: ScriptFacts, call: ast.Call, asked: ast.AST | None) -> tuple[str, ast.AST]:
    """Who downloads: "global" (global rank 0 only, or first), "local" (each node's first
    process), or "every" rank; and the statement that decides it (the finding's line)."""
    if asked is not None and mentions_rank(asked, src.rank_words):
        return _kind(asked), call  # download=is_global_zero
    current, child = src.parents.get(call), call
    followed: set[ast.AST] = set()  # a function that is its own only caller is read once
    while current is not None:
        if isinstance(current, ast.If) and mentions_rank(current.test, src.rank_words):
            return _kind(current.test), current
        body = getattr(current, "body", None)
        if isinstance(body, list) and child in body:
            for stmt in body[: body.index(child)]:  # `if rank != 0: barrier()` before it
                if _barrier(stmt) and mentions_rank(stmt.test, src.rank_words):  # type: ignore[attr-defined]
                    return _kind(stmt.test), stmt  # type: ignore[attr-defined]
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            callers = src.callers(current)
            if len(callers) == 1 and current not in followed:
                followed.add(current)
                current, child = callers[0], callers[0]
                continue
            break
        current, child = src.parents.get(current), current
    return "every", call


def _kind(test: ast.AST) -> str:
    text = ast.unparse(test).lower()
    return "local" if "local" in text or "gpu" in text else "global"


def _barrier(stmt: ast.AST) -> bool:
    return isinstance(stmt, ast.If) and any("barrier" in dotted(n.func) for n in _calls(stmt))


def _calls(stmt: ast.AST) -> Iterator[ast.Call]:
    return (n for n in ast.walk(stmt) if isinstance(n, ast.Call))


def _inside_with(src: ScriptFacts, node: ast.AST, name: str) -> bool:
    """Inside a `with` block whose context is a call ending in `name` (a trainer's
    `rank_zero_first()`; a `FileLock(…)`, under which the node's processes download in turn)."""
    current = src.parents.get(node)
    while current is not None:
        if opens(current, name):
            return True
        current = src.parents.get(current)
    return False


# ---- collective checkpoints ---------------------------------------------------------------


def _collective_saves(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """One finding per rule (the first save it is about): the fix covers the others."""
    said: set[str] = set()
    for name, call in sorted(src.calls, key=lambda c: (src.file(c[1]), c[1].lineno)):
        last = name.split(".")[-1]
        own = last in src.functions and (name == dotted(call.func) or src.local(name))
        collective = (last in _COLLECTIVE and "." in name and not own) or name.endswith(_DCP)
        if not collective or plan.nodes <= 1 or plan.off(call) or src.guarded_by_rank(call):
            continue
        target = _path_arg(call) or keyword(call, "checkpoint_id")
        where = place(src, plan, target)
        if where.per_process and "run_dir_per_process" not in said:
            said.add("run_dir_per_process")
            yield src.finding(
                call,
                f"{name}() is one save that every rank writes a part of, into a folder named "
                "from a clock or a random id: each process names its own, so the save is split "
                "over as many folders as there are processes",
                "name the folder once (from the job's name, or made on rank 0 and broadcast), or "
                "use a fixed name under outputs/",
                "run_dir_per_process",
            )
        elif where.where == NODE and "checkpoint_node_local" not in said:
            said.add("checkpoint_node_local")
            yield src.finding(
                call,
                f"{name}() writes each rank's part of the checkpoint into "
                f"{where.text or 'a folder'} on that rank's own node: the parts are scattered "
                f"over the {plan.nodes} nodes, and no node can resume from it",
                "save into outputs/ (Azure ML gathers every node's files after the job) or into "
                "a mounted datastore output (`${{outputs.checkpoints}}`)",
                "checkpoint_node_local",
            )


def _one_rank_saves(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A collective save (every rank must call it: an engine's save_checkpoint,
    torch.distributed.checkpoint) reached under a rank test, itself or through the script's
    own function that makes it: the ranks it waits for never come, and the job hangs."""
    if plan.world <= 1:
        return
    for name, call in src.calls:
        receiver, _, last = name.rpartition(".")
        engine = "engine" in receiver.lower() or any(
            k.arg in ("tag", "client_state") for k in call.keywords
        )  # an engine's save_checkpoint(save_dir, tag=…, client_state=…)
        if not ((last == "save_checkpoint" and engine) or name.endswith(_DCP)):
            continue
        if plan.off(call):
            continue
        fn = src.function_of(call)
        sites = [call] + (src.callers(fn) if fn is not None else [])
        guarded = next((s for s in sites if _under_rank_test(src, s)), None)
        if guarded is not None:
            yield src.finding(
                guarded,
                f"{name}() is collective (all {plan.world} ranks must call it), but only the "
                "rank this test picks reaches it here: it waits for the others, and the job "
                "hangs",
                "call it on every rank (the engine writes from the right ranks itself)",
                "collective_on_one_rank",
            )


def _under_rank_test(src: ScriptFacts, node: ast.AST) -> bool:
    """Inside an `if` of its own function that tests which process this is."""
    current = src.parents.get(node)
    while current is not None and not isinstance(current, ast.FunctionDef | ast.Module):
        if isinstance(current, ast.If) and picks_one(src, current.test):
            return True
        current = src.parents.get(current)
    return False


_ONE_WORDS = ("main", "master", "zero", "root", "chief", "primary")


def picks_one(src: ScriptFacts, test: ast.AST) -> bool:
    """A test that lets one process through (`rank == 0`, `is_main_process`, `not rank`), not
    one that asks whether the run is distributed at all (`local_rank != -1`)."""
    if not mentions_rank(test, src.rank_words):
        return False
    for n in ast.walk(test):
        if isinstance(n, ast.Compare) and any(
            isinstance(c, ast.Constant) and c.value == -1 for c in [n.left, *n.comparators]
        ):
            return False
    for n in ast.walk(test):
        word = n.id if isinstance(n, ast.Name) else getattr(n, "attr", "")
        if word in src.rank_words or any(w in word.lower() for w in _ONE_WORDS):
            return True
        if isinstance(n, ast.Compare) and any(
            isinstance(c, ast.Constant) and c.value == 0 for c in [n.left, *n.comparators]
        ):
            return True
    return False
