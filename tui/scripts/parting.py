"""The script check's rules about where one rank parts from the others, for every framework:

- a training loop that only one rank leaves (`if loss < target and is_main: break`): the other
  ranks run on into the next step's collectives and wait for it there, and the job hangs;
- files that one rank of a node writes (generated data, an unpacked archive) and every rank of
  that node then reads, with no barrier in between: the others read a folder that is missing or
  half written.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts, mentions_rank
from tui.scripts.files import picks_one
from tui.scripts.syntax import constant, dotted, keyword, statements

COLLECTIVES = (
    "all_reduce", "allreduce", "all_gather", "allgather", "broadcast", "barrier", "reduce",
    "reduce_scatter", "all_to_all", "backward", "wait_for_everyone", "join", "gather",
    "broadcast_object_list", "allreduce_", "broadcast_parameters", "scatter",
)  # fmt: skip
"""Calls every rank must make together (a distributed model's backward averages gradients)."""
_WAITS = (*COLLECTIVES, "init_process_group", "init_distributed")
"""Calls that wait for every rank before they return (joining the group waits for all)."""
_WRITES = (
    "makedirs", "mkdir", "save", "savez", "write_text", "write_bytes", "to_csv", "to_parquet",
    "extractall", "copyfile", "copytree", "copy", "move", "dump", "save_to_disk", "imwrite",
)  # fmt: skip
_READS = (
    "glob", "listdir", "scandir", "iterdir", "rglob", "load", "read_csv", "read_parquet",
    "loadtxt", "read_text", "load_from_disk", "ImageFolder", "DatasetFolder",
)  # fmt: skip


def parting_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Every rule of this module."""
    if plan.world <= 1:
        return
    yield from _loops_one_rank_leaves(src, plan)
    if max(1, plan.world // max(1, plan.nodes)) > 1:
        yield from _writes_read_unawaited(src, plan)


# ---- a loop one rank leaves ---------------------------------------------------------------


def _loops_one_rank_leaves(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    for module in src.modules:
        for node in statements(module.tree.body):
            if not isinstance(node, ast.Break | ast.Return) or not src.runs(node):
                continue
            test, loop = _one_rank_exit(src, node)
            if test is None or loop is None:
                continue
            waits = next((c for c in _calls(loop) if _collective(c)), None)
            if waits is None or plan.off(test):
                continue
            leaves = "break" if isinstance(node, ast.Break) else "return"
            yield src.finding(
                test,
                f"only the rank this test picks leaves the loop ({leaves}); the other "
                f"{plan.world - 1} ranks run on into the next step's "
                f"{dotted(waits.func).split('.')[-1]}() (line {waits.lineno}) and wait there "
                "for it: the job hangs",
                "decide on every rank: test a value all ranks share (the all-reduced loss) "
                "without the rank, or broadcast rank 0's decision, and leave the loop on every "
                "rank",
                "collective_on_one_rank",
            )


def _one_rank_exit(src: ScriptFacts, node: ast.AST) -> tuple[ast.AST | None, ast.AST | None]:
    """The `if` that lets one rank out of the loop at `node` (a break or return), and the
    loop; (None, None) when no test between them picks one rank."""
    test: ast.AST | None = None
    current, child = src.parents.get(node), node
    while current is not None and not isinstance(current, ast.FunctionDef | ast.Module):
        if isinstance(current, ast.If) and child in current.body and picks_one(src, current.test):
            test = test or current
        if isinstance(current, ast.For | ast.While):
            return (test, current) if test is not None else (None, None)
        current, child = src.parents.get(current), current
    return None, None


def _collective(call: ast.Call) -> bool:
    return dotted(call.func).split(".")[-1] in COLLECTIVES


def _calls(node: ast.AST) -> Iterator[ast.Call]:
    return (n for n in ast.walk(node) if isinstance(n, ast.Call))


# ---- files one rank writes and the others read ----------------------------------------------


def _writes_read_unawaited(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    for module in src.modules:
        for block in _blocks(module.tree):
            for i, stmt in enumerate(block):
                if not isinstance(stmt, ast.If) or not mentions_rank(stmt.test, src.rank_words):
                    continue
                found = _first_read_write(stmt, block[i + 1 :])
                if found is None or not src.runs(stmt) or plan.off(stmt):
                    continue
                write, read = found
                guard = _innermost_if(src, write, stmt)
                yield src.finding(
                    guard,
                    f"one rank writes {_shown(write)} here, and every rank of the node reads it "
                    f"at line {read.lineno} ({dotted(read.func).split('.')[-1]}) with nothing "
                    "that waits for the writer in between: the other ranks find the files "
                    "missing or half written",
                    "call a barrier on every rank after the writing block (outside the rank "
                    "test) and before the read, or write the files before the job starts",
                    "local_write_no_barrier",
                )


def _first_read_write(guarded: ast.If, after: list[ast.stmt]) -> tuple[ast.Call, ast.Call] | None:
    """The first write under the rank test whose path the statements `after` it read before
    any barrier, and that read."""
    writes = sorted((c for c in _calls(guarded) if _write(c)), key=lambda c: c.lineno)
    for write in writes:
        read = _read_before_barrier(after, _roots(write), _names(write))
        if read is not None:
            return write, read
    return None


def _blocks(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    """Every block of statements (statements hold them; their expressions are not walked)."""
    nodes: list[ast.AST] = [tree, *statements(tree.body)]
    nodes += [case for n in nodes if isinstance(n, ast.Match) for case in n.cases]
    for node in nodes:
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _write(call: ast.Call) -> bool:
    last = dotted(call.func).split(".")[-1]
    if last == "open":
        mode = constant(keyword(call, "mode", 1))
        return isinstance(mode, str) and any(c in mode for c in "wax")
    return last in _WRITES and bool(call.args)


def _read(call: ast.Call) -> bool:
    last = dotted(call.func).split(".")[-1]
    if last == "open":
        mode = keyword(call, "mode", 1)
        return mode is None or constant(mode) in ("r", "rb")
    return last in _READS


def _roots(call: ast.Call) -> set[str]:
    """The names and path strings a call's arguments are built from (`args.dir`)."""
    out: set[str] = set()
    inner = {id(n.func) for n in _calls(call)}  # a call's function, a chain's head
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        for n in ast.walk(arg):
            if isinstance(n, ast.Attribute):
                inner.add(id(n.value))
            if id(n) in inner:
                continue
            if isinstance(n, ast.Attribute | ast.Name) and dotted(n):
                out.add(dotted(n))
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and "/" in n.value:
                out.add(n.value.rstrip("/"))
    return out


def _names(call: ast.Call) -> set[str]:
    """The file names a call's path ends in, where it spells them (`dir / 'stats.txt'`)."""
    words = (
        n.value.rstrip("/").rsplit("/", 1)[-1]
        for arg in call.args
        for n in ast.walk(arg)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    )
    return {w for w in words if "." in w and not w.startswith(".")}


def _read_before_barrier(
    after: list[ast.stmt], roots: set[str], names: set[str]
) -> ast.Call | None:
    """The first read of a path built from `roots` in the statements `after` the writing
    block, before any call that every rank makes together; a read that names another file
    in the same folder (`names`: the file the write names) is not the written one."""
    for stmt in after:
        calls = sorted(_calls(stmt), key=lambda c: (c.lineno, c.col_offset))
        for call in calls:
            if dotted(call.func).split(".")[-1] in _WAITS:
                return None
            other = names and _names(call) and not names & _names(call)
            if _read(call) and roots & _roots(call) and not other:
                return call
    return None


def _innermost_if(src: ScriptFacts, node: ast.AST, top: ast.If) -> ast.AST:
    """The `if` closest around `node` inside `top` (an `elif` is its own `if`)."""
    current = src.parents.get(node)
    while current is not None and current is not top:
        if isinstance(current, ast.If):
            return current
        current = src.parents.get(current)
    return top


def _shown(call: ast.Call) -> str:
    first = call.args[0] if call.args else None
    return f"into {ast.unparse(first)}" if first is not None else "files"
