"""TensorFlow's script-check rules (`TensorFlow.script_rules`): a strategy that fits the plan's
tasks (MultiWorkerMirroredStrategy, or ParameterServerStrategy with parameter servers), the model
built in its scope, TF_CONFIG left as Azure ML writes it and read for the task, and a coordinator
on a task the plan has."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.frameworks.launch_env import env_writes
from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts
from tui.scripts.syntax import constant, dotted, keyword, opens


def strategy_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """The strategy matching the plan (MultiWorkerMirroredStrategy, or ParameterServerStrategy
    when there are parameter servers), which reads TF_CONFIG; the model built in its scope."""
    spec = plan.spec
    mwms = src.find("MultiWorkerMirroredStrategy", "CollectiveAllReduceStrategy")  # TF 1.x name
    ps = src.find("ParameterServerStrategy")
    # TF1's own parameter-server training: variables placed on the ps tasks the plan makes
    tf1_ps = src.find("replica_device_setter")
    mirrored = src.find("MirroredStrategy", "OneDeviceStrategy")
    if spec.parameter_servers and not ps and not tf1_ps:
        yield src.finding(
            mwms[0] if mwms else None,
            f"the plan has {spec.parameter_servers} parameter server task(s) but the script "
            "does not use ParameterServerStrategy",
            "tf.distribute.experimental.ParameterServerStrategy(cluster_resolver), or set "
            "parameter servers to 0",
            "tf_ps_strategy_missing",
        )
    elif not spec.parameter_servers and ps:
        yield src.finding(
            ps[0],
            "ParameterServerStrategy but the plan has no parameter server tasks",
            "add parameter servers on Resources, or use MultiWorkerMirroredStrategy",
            "tf_ps_without_servers",
        )
    elif not spec.parameter_servers and not mwms and spec.nodes > 1:
        yield src.finding(
            mirrored[0] if mirrored else None,
            (
                "MirroredStrategy uses one machine's GPUs"
                if mirrored
                else "no tf.distribute strategy"
            )
            + f": the {spec.nodes} workers in TF_CONFIG would each train alone",
            "strategy = tf.distribute.MultiWorkerMirroredStrategy() (it reads TF_CONFIG), "
            "and build the model inside strategy.scope()",
            "tf_no_multiworker_strategy",
        )
    strategies = mwms or ps or mirrored
    outside = [m for m in _models(src) if not _in_scope(src, m)]
    # handed to a config (RunConfig(train_distribute=strategy)): the Estimator builds the model
    # in its model_fn under the strategy itself
    estimator = any(isinstance(src.parents.get(c), ast.keyword) for c in strategies) or any(
        kw.arg == "train_distribute" for _, call in src.calls for kw in call.keywords
    )
    if strategies and not estimator and (outside or not src.has("scope")):
        yield src.finding(
            outside[0] if outside else strategies[0],
            "the strategy is made but the model and optimizer are built outside "
            "strategy.scope(): their variables are not mirrored across the workers",
            "with strategy.scope(): build and compile the model",
            "strategy_scope_missing",
        )


def _models(src: ScriptFacts) -> list[ast.Call]:
    """Where the Keras model is made: Sequential / Model / keras.applications, or the script's
    own build_model()-like function."""
    found = []
    for name, call in src.calls:
        last = name.split(".")[-1]
        keras = "keras" in name or "applications" in name
        own = (
            last.lower().startswith(("build", "create", "make", "get")) and "model" in last.lower()
        )
        if (keras and (last in ("Sequential", "Model") or "applications" in name)) or (
            own and last in src.functions
        ):
            found.append(call)
    found.sort(key=lambda c: (src.file(c) != src.modules[0].file, c.lineno))
    return found


def _in_scope(src: ScriptFacts, node: ast.AST, depth: int = 3) -> bool:
    """Inside `with strategy.scope():`, or in a function only called there (or one whose own
    body opens the scope around it)."""
    if isinstance(node, ast.Call) and _opens_scope_itself(src, node):
        return True
    current = src.parents.get(node)
    while current is not None:
        if opens(current, "scope"):
            return True
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            callers = src.callers(current)
            return (
                bool(callers) and depth > 0 and all(_in_scope(src, c, depth - 1) for c in callers)
            )
        current = src.parents.get(current)
    return False


def _opens_scope_itself(src: ScriptFacts, call: ast.Call) -> bool:
    """A call of the script's own `get_model()` whose body builds the model in
    `with strategy.scope():` (what it compiles after the block keeps that strategy)."""
    name = dotted(call.func).split(".")[-1]
    return any(opens(n, "scope") for fn in src.functions.get(name, ()) for n in ast.walk(fn))


def cluster_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """TF_CONFIG left as Azure ML writes it, tasks found from it, a coordinator where the plan
    has one."""
    for key, _, stmt in env_writes(src):
        if key == "TF_CONFIG" and not plan.off(stmt) and not _reads_tf_config(src, stmt):
            yield src.finding(
                stmt,
                "the script writes TF_CONFIG itself, replacing the one Azure ML writes on each "
                f"of the plan's {plan.nodes} nodes (the whole cluster, and which task this "
                "node is)",
                "remove it: read the cluster with tf.distribute.cluster_resolver."
                "TFConfigClusterResolver()",
                "tf_config_overwritten",
            )
    written = [
        (where, task)
        for key, value, stmt in env_writes(src)
        if key == "TF_CONFIG" and not plan.off(stmt) and not _reads_tf_config(src, stmt)
        for where, task in [_written_task(src, value, stmt)]
        if task is not None and not _from_env(task)
    ]
    flagged = list(_task_flags(src, plan))
    for where, task in written[:1]:
        if flagged and _task_source(task) != "flags":
            break  # flags the written task does not use: they are the finding
        flagged = []  # the flags feed the written task: one finding, at that task
        yield src.finding(
            where,
            f"the TF_CONFIG the script writes names this task from {_task_source(task)}, the "
            f"same on all {plan.nodes} nodes (the plan's command is the same everywhere): "
            "every node believes it is the same task",
            "read the task from the TF_CONFIG Azure ML writes "
            "(tf.distribute.cluster_resolver.TFConfigClusterResolver())",
            "tf_task_from_flags",
        )
    yield from flagged
    if "chief" not in plan.roles:
        for module in src.modules:
            for node in module.nodes:
                if isinstance(node, ast.If) and _tests_chief(src, node) and src.runs(node):
                    yield src.finding(
                        node,
                        "the coordinator runs only when the task type is 'chief', but the "
                        "plan's TF_CONFIG names workers and ps only: nothing drives training",
                        "coordinate on worker 0: `if task_type == 'worker' and task_id == 0`",
                        "ps_coordinator_on_missing_chief",
                    )


def _sub_commands(src: ScriptFacts) -> dict[str, object]:
    """Each sub-command parser's name by the name that holds it (`server =
    subparsers.add_parser("startserver")`)."""
    return {
        dotted(t): constant(stmt.value.args[0]) if stmt.value.args else None
        for stmt in src.assignments
        if isinstance(stmt.value, ast.Call) and dotted(stmt.value.func).endswith("add_parser")
        for t in stmt.targets
    }


def _parsed(plan: CheckPlan, node: ast.AST, subs: dict[str, object]) -> bool:
    """The flag is read under the plan's command: not one of a sub-command's parser whose name
    the command does not give."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return True
    name = subs.get(dotted(node.func.value))
    return not isinstance(name, str) or name in plan.argv


def _task_flags(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Task flags (--task_index, --job_name, ...) or literal task arguments."""
    subs = _sub_commands(src)
    flags = [
        (a.dest, a.node)
        for a in (plan.parser.args if plan.parser else ())
        if a.node and _parsed(plan, a.node, subs)
    ]
    flags += [
        (str(constant(keyword(call, "name", 0))), call)
        for name, call in src.calls
        if name.split(".")[-1].startswith("DEFINE_")
    ]
    task = sorted(
        ((name, node) for name, node in flags if name in _TASK_FLAGS and node is not None),
        key=lambda pair: (src.file(pair[1]) != src.modules[0].file, pair[1].lineno),
    )
    if task:
        names = ", ".join(dict.fromkeys(f"--{name}" for name, _ in task))
        yield src.finding(
            task[0][1],
            f"the task comes from flags ({names}), and the plan's command is the same on all "
            f"{plan.nodes} nodes (it passes them none, or the same values): every node "
            "believes it is the same task; Azure ML says which task a node is in TF_CONFIG",
            "read the cluster and the task from TF_CONFIG "
            "(tf.distribute.cluster_resolver.TFConfigClusterResolver())",
            "tf_task_from_flags",
        )
    literal = [
        call
        for _, call in src.calls
        if any(
            kw.arg in ("task_type", "task_id", "task_index") and isinstance(kw.value, ast.Constant)
            for kw in call.keywords
        )
    ]
    reads = src.has("TF_CONFIG", "TFConfigClusterResolver")
    if literal and not task and not reads:  # a coordinator naming itself reads TF_CONFIG too
        yield src.finding(
            literal[0],
            "the task type and index are literals: every one of the plan's "
            f"{plan.nodes} nodes believes it is the same task",
            "read the task from TF_CONFIG (TFConfigClusterResolver())",
            "tf_task_from_flags",
        )


def _written_task(
    src: ScriptFacts, value: ast.AST, stmt: ast.AST
) -> tuple[ast.AST, ast.AST | None]:
    """The `task` of a TF_CONFIG the script writes (`json.dumps({..., "task": {...}})`): where it
    is made (the write, or the assignment of the name it is given) and its value; (stmt, None)
    when it has none."""
    for node in ast.walk(value):
        if not isinstance(node, ast.Dict):
            continue
        for key, item in zip(node.keys, node.values, strict=True):
            if key is None or constant(key) != "task":
                continue
            if isinstance(item, ast.Name):
                scope = src.function_of(item) or src.module_of[item].tree
                for sub in ast.walk(scope):
                    if isinstance(sub, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == item.id for t in sub.targets
                    ):
                        return sub, sub.value
            return stmt, item
    return stmt, None


def _from_env(stmt: ast.AST) -> bool:
    """A task read from the environment (a variable the launcher may set): not provably wrong."""
    text = ast.unparse(stmt)
    return "environ" in text or "getenv" in text


def _task_source(stmt: ast.AST) -> str:
    """What a written task is made from, in words."""
    text = ast.unparse(stmt)
    if "argv" in text:
        return "the command line (sys.argv)"
    if "FLAGS" in text or "args." in text:
        return "flags"
    return "literals"


def _reads_tf_config(src: ScriptFacts, stmt: ast.AST) -> bool:
    """The write adjusts the TF_CONFIG it read (or is made only where there is none)."""
    scope = src.function_of(stmt) or src.modules[0].tree
    for node in ast.walk(scope):
        if isinstance(node, ast.Compare) and any(
            isinstance(n, ast.Constant) and n.value == "TF_CONFIG" for n in ast.walk(node)
        ):
            return True
        loads = isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
        if loads and constant(node.slice) == "TF_CONFIG":  # type: ignore[attr-defined]
            return True
        if isinstance(node, ast.Call) and constant(keyword(node, "key", 0)) == "TF_CONFIG":
            return True
    return False


_TASK_FLAGS = ("task_index", "task_type", "job_name", "worker_hosts", "ps_hosts", "task_id")


def _tests_chief(src: ScriptFacts, branch: ast.If) -> bool:
    """Coordinator code only a chief runs: `if task_type == "chief": …coordinator / fit…`, or
    `if task_type in ("worker", "ps"): server.join()` (itself, or in a function of the script it
    calls) with the coordinator after it."""
    words = {n.value for n in ast.walk(branch.test) if isinstance(n, ast.Constant)}
    body = ast.dump(ast.Module(body=branch.body, type_ignores=[]))
    if "chief" in words:
        return "Coordinator" in body or "fit" in body
    return {"worker", "ps"} <= words and ("join" in body or _calls_join(src, branch.body))


def _calls_join(src: ScriptFacts, body: list[ast.stmt]) -> bool:
    """A call in `body` to a function of the script whose own body joins a server."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            for fn in src.functions.get(node.func.id, []):
                if any(
                    isinstance(n, ast.Call) and dotted(n.func).endswith(".join")
                    for n in ast.walk(fn)
                ):
                    return True
    return False
