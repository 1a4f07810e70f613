"""The variables a launch sets against what a training script reads and writes (the
script-check rules every torch-based framework and TensorFlow share): a variable required that
the plan's launch does not set, one that nothing in the plan sets (another platform's, a
service's key), MASTER_ADDR / MASTER_PORT overwritten by the script, and rank, rendezvous or GPU
taken from an MPI communicator on a plan that does not start the processes with mpirun."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.flow import command_flags
from tui.scripts.syntax import constant, dotted

LAUNCHER_VARS = (
    "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
    "NODE_RANK", "GROUP_RANK", "GROUP_WORLD_SIZE", "ROLE_RANK", "ROLE_WORLD_SIZE",
    "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_RANK", "PMI_SIZE", "SLURM_PROCID", "SLURM_NTASKS",
    "SLURM_LOCALID", "TORCHELASTIC_RUN_ID",
)  # fmt: skip
"""Variables a launcher sets: a script that requires one the plan does not set dies."""
_MASTER = ("MASTER_ADDR", "MASTER_PORT")
_ALWAYS = ("HOME", "PATH", "USER", "LOGNAME", "SHELL", "PWD", "HOSTNAME", "LANG", "TERM", "TMPDIR")
_ALWAYS_PREFIX = ("AZUREML_", "AZ_BATCH_", "CUDA_", "NVIDIA_", "LD_", "CONDA_", "PYTHON")
_AZURE_BATCHAI = (
    "AZ_BATCHAI_MPI_MASTER_NODE",
    "AZ_BATCHAI_PYTORCH_INIT_METHOD",
    "AZ_BATCHAI_TASK_INDEX",
)
"""What every process on an Azure ML node has whatever the plan: the shell's own variables, the
platform's (of Batch AI's, only the three Azure ML still sets: not its `AZ_BATCHAI_INPUT_*`
folders), its GPU image's."""
_PATH_CALL = re.compile(r"path|dir|folder|file|open|join|exists|listdir|^int$|^float$", re.I)
"""Calls that fail on None: a read with no default given straight to one is required."""


def unset_env(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`os.environ["X"]` (required, no default) for a launcher variable the plan's launch does
    not set: one finding per place that reads them, at its first read."""
    places: dict[ast.AST | None, list[tuple[str, ast.AST]]] = {}
    said: set[str] = set()
    for key, node in env_reads(src):
        if key not in LAUNCHER_VARS or key in plan.env or key in said or _tried(src, node):
            continue
        if plan.off(node):
            continue
        said.add(key)
        places.setdefault(src.function_of(node), []).append((key, node))
    known = ", ".join(v for v in LAUNCHER_VARS if v in plan.env)
    for reads in places.values():
        keys = [key for key, _ in reads]
        first = min((node for _, node in reads), key=lambda n: n.lineno)
        yield src.finding(
            first,
            f"os.environ[{keys[0]!r}]"
            + (f" (and {', '.join(keys[1:])})" if len(keys) > 1 else "")
            + f" is required, but the plan's launch does not set {' or '.join(keys)}: every "
            "rank stops with KeyError",
            f"derive it from what the plan sets ({known}), or os.environ.get(name, default)",
            "env_var_not_set",
        )


def unset_anywhere(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """`os.environ["X"]` (required) for a variable that neither a launcher, nor the plan's
    environment, nor the node itself sets: another platform's (its data and model folders) or
    a service's account. One finding per variable, where it is first read; a read in an
    argument's default counts, since the default is built before the command line is read.
    A variable the script sets itself (`os.environ[X] = …`, `setdefault`) is not said unless
    only later in the same function: whether it is set by then cannot be proved otherwise."""
    said: set[str] = set()
    written = _set_by_script(src)
    for key, node in env_reads(src):
        if key in LAUNCHER_VARS or key in plan.env or key in said or _machine(key):
            continue
        if any(_maybe_before(src, w, node) for w in written.get(key, ())):
            continue
        if _tried(src, node) or plan.off(node) or _tested(src, node, key):
            continue
        said.add(key)
        yield src.finding(
            node,
            f"os.environ[{key!r}] is required, but nothing in the plan sets {key} (Azure ML "
            "sets only its launcher's variables and the job's own): the processes that read "
            "it stop with KeyError",
            f"add {key} to the job's environment variables, or read it with "
            "os.environ.get(name, default)",
            "env_var_not_set",
        )
    for key, node, user in gets_into_calls(src):
        if key in LAUNCHER_VARS or key in plan.env or key in said or _machine(key):
            continue
        if any(_maybe_before(src, w, node) for w in written.get(key, ())):
            continue
        if _tried(src, node) or plan.off(node) or _tested(src, node, key):
            continue
        said.add(key)
        yield src.finding(
            node,
            f"os.getenv({key!r}) gives None here, since nothing in the plan sets {key} (Azure "
            f"ML sets only its launcher's variables and the job's own), and "
            f"{dotted(user.func)}() fails on None before training starts",
            f"add {key} to the job's environment variables (a mounted input's path: "
            "--set env.NAME=${{inputs.data}}), or give os.getenv a default",
            "env_var_not_set",
        )


def _set_by_script(src: ScriptFacts) -> dict[str, list[ast.AST]]:
    """Where the script's own code sets each variable: assigned, updated or given a default."""
    found: dict[str, list[ast.AST]] = {}
    for key, _, stmt in env_writes(src):
        found.setdefault(key, []).append(stmt)
    for call in src.find("environ.setdefault", "putenv"):
        key = constant(call.args[0]) if call.args else None
        if isinstance(key, str):
            found.setdefault(key, []).append(call)
    return found


def _maybe_before(src: ScriptFacts, write: ast.AST, read: ast.AST) -> bool:
    """The write may run before the read: not provably after it (a later line of the same
    function's code, or of the same module's top level)."""
    same = src.function_of(write) is src.function_of(read) and src.file(write) == src.file(read)
    return not same or write.lineno < read.lineno


def _machine(key: str) -> bool:
    return key in _ALWAYS or key in _AZURE_BATCHAI or key.startswith(_ALWAYS_PREFIX)


def _tested(src: ScriptFacts, node: ast.AST, key: str) -> bool:
    """Read where `key in os.environ` was tested first (`if "X" in os.environ and ...`), in
    its own statement or one around it."""
    current: ast.AST | None = node
    while current is not None and not isinstance(current, ast.FunctionDef | ast.Module):
        test = current if current is node else getattr(current, "test", None)
        for n in ast.walk(test) if test is not None else ():
            if isinstance(n, ast.Compare) and constant(n.left) == key:
                return True
        current = src.parents.get(current)
    return False


def _tried(src: ScriptFacts, node: ast.AST) -> bool:
    """Inside `try:` with an except that catches a missing key."""
    current = src.parents.get(node)
    while current is not None and not isinstance(current, ast.FunctionDef):
        if isinstance(current, ast.Try) and any(
            h.type is None or any(w in ast.dump(h.type) for w in ("KeyError", "Exception"))
            for h in current.handlers
        ):
            return True
        current = src.parents.get(current)
    return False


def env_reads(src: ScriptFacts) -> Iterator[tuple[str, ast.AST]]:
    """(key, statement) for each `os.environ[KEY]` read in code that runs; a key in a loop
    over literal names counts too."""
    for node in src.subscripts:
        if not (
            isinstance(node.ctx, ast.Load)
            and dotted(node.value).endswith("environ")
            and src.runs(node)
        ):
            continue
        key = constant(node.slice)
        keys = [key] if isinstance(key, str) else _loop_keys(src, node)
        for k in keys:
            yield k, src.statement(node)


def gets_into_calls(src: ScriptFacts) -> Iterator[tuple[str, ast.AST, ast.Call]]:
    """(key, statement, call) for each `os.getenv(KEY)` with no default given straight to a
    call that fails on None (`ImageFolder(os.getenv("DATA_DIR"))`), in code that runs."""
    for module in src.modules:
        for node in module.nodes:
            if (user := _into_path(src, node)) is not None:
                yield constant(node.args[0]), src.statement(node), user  # type: ignore[attr-defined]


def _into_path(src: ScriptFacts, node: ast.AST) -> ast.Call | None:
    if not (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and not node.keywords
        and dotted(node.func).endswith(("os.getenv", "environ.get"))
        and isinstance(constant(node.args[0]), str)
    ):
        return None
    user = src.parents.get(node)
    if isinstance(user, ast.keyword):
        user = src.parents.get(user)
    if not isinstance(user, ast.Call) or not _PATH_CALL.search(dotted(user.func).split(".")[-1]):
        return None
    return user if src.runs(node) else None


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


def master_overwritten(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """MASTER_ADDR / MASTER_PORT given a literal (or a flag's default): one finding per place
    that does it, at its first line."""
    if plan.nodes <= 1:
        return
    places: dict[ast.AST | None, list[tuple[str, object, ast.AST]]] = {}
    for key, node, stmt in env_writes(src):
        value = constant(node)
        if value is None and plan.flow is not None:
            given = plan.flow.value_at(node)
            value = given.value if given.known and command_flags(given.flags) else None
        if key in _MASTER and isinstance(value, str | int) and not plan.off(stmt):
            places.setdefault(src.function_of(stmt), []).append((key, value, stmt))
    for writes in places.values():
        said = " and ".join(f"{key}={value!r}" for key, value, _ in writes)
        keys = ", ".join(dict.fromkeys(key for key, _, _ in writes))
        yield src.finding(
            min((stmt for _, _, stmt in writes), key=lambda n: n.lineno),
            f"the script sets {said}, replacing what the plan gives: the {plan.nodes} nodes "
            "never meet at the master node",
            f"remove it (or os.environ.setdefault): Azure ML and torchrun set {keys}",
            "hardcoded_master",
        )


def env_writes(src: ScriptFacts) -> Iterator[tuple[str, ast.AST, ast.AST]]:
    """(key, value, statement) for each `os.environ[KEY] = value` (or `os.environ.update(KEY=…)`,
    `os.environ.update({KEY: …})`) in code that runs."""
    for name, call in src.calls:
        if name.endswith("environ.update"):
            for kw in call.keywords:
                if kw.arg:
                    yield kw.arg, kw.value, src.statement(call)
            for arg in call.args:
                for key, value in zip(
                    getattr(arg, "keys", ()), getattr(arg, "values", ()), strict=False
                ):
                    if isinstance(constant(key), str):
                        yield str(constant(key)), value, src.statement(call)
    for node in src.assignments:
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and isinstance(constant(target.slice), str)
                and dotted(target.value).endswith("environ")
                and src.runs(node)
            ):
                yield str(constant(target.slice)), node.value, node


_FROM_MPI = re.compile(r"COMM_WORLD|\bcomm\.(rank|size)\b|Get_rank\(|Get_size\(|\.bcast\(")
_RANKS = ("RANK", "WORLD_SIZE", "LOCAL_RANK")
_DEVICES = ("device", "set_device")


def mpi_without_mpirun(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """RANK / WORLD_SIZE, MASTER_ADDR / MASTER_PORT or the GPU taken from an mpi4py
    communicator (OpenAI's `dist_util` and its copies) on a plan whose launch is not mpirun:
    there every process is MPI rank 0 of a world of 1. One finding per kind, at its first line."""
    if not src.imports_any("mpi4py") or "OMPI_COMM_WORLD_RANK" in plan.env:
        return
    kinds: dict[str, list[tuple[str, ast.AST]]] = {}
    for key, value, stmt in env_writes(src):
        if _FROM_MPI.search(ast.unparse(value)) and not plan.off(stmt):
            kind = "rank" if key in _RANKS else "master" if key in _MASTER else ""
            kind = "device" if key == "CUDA_VISIBLE_DEVICES" else kind
            if kind:
                kinds.setdefault(kind, []).append((key, stmt))
    for name, call in src.calls:
        if name.split(".")[-1] not in _DEVICES or plan.off(call):
            continue
        if any(_FROM_MPI.search(ast.unparse(a)) for a in call.args):
            kinds.setdefault("device", []).append(("the device", call))
    alone = "which is 0 in every process that mpirun did not start"
    said = {
        "rank": (
            f"are taken from the MPI communicator, {alone} (a world of 1): each of the plan's "
            f"{plan.world} processes makes a group of its own and trains alone",
            "keep the RANK / WORLD_SIZE the launcher sets (drop the overrides), or run the "
            "script under an MPI plan (Horovod)",
            "rank_not_from_env",
        ),
        "master": (
            "are replaced by what MPI rank 0 of each process's own world of 1 broadcasts (its "
            f"own host, a port it picked): the {plan.nodes} nodes never meet",
            "keep the MASTER_ADDR / MASTER_PORT the launcher sets (drop the overrides)",
            "hardcoded_master",
        ),
        "device": (
            f"is chosen by the MPI rank, {alone}: the {plan.gpus_per_node} processes of a node "
            "all use GPU 0",
            "pick the GPU by int(os.environ['LOCAL_RANK'])",
            "device_not_local_rank",
        ),
    }
    for kind, found in kinds.items():
        keys = " / ".join(dict.fromkeys(key for key, _ in found))
        what, fix, rule = said[kind]
        first = min((node for _, node in found), key=lambda n: (src.file(n), n.lineno))
        yield src.finding(first, f"{keys} {what}", fix, rule)
