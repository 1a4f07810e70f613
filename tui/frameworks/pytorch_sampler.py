"""PyTorch's sampler rules (`pytorch_data.data_rules` runs them): each rank's loader sharded by
a DistributedSampler (not held out, not an iterable dataset, not synthetic data every rank
makes for itself), reshuffled each epoch with `set_epoch`."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts, mentions_rank
from tui.scripts.syntax import constant, dotted, keyword


def sampler_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A map-style DataLoader sharded by rank (an IterableDataset shards itself, or not: it is
    not this rule's), and a shuffling DistributedSampler reseeded each epoch."""
    loaders = [
        c
        for c in src.find("DataLoader")
        if not _iterable(src, c)
        and not _synthetic(src, keyword(c, "dataset", 0))
        and not _drawn_per_rank(src, c)
        and not plan.off(c)
    ]
    samplers = src.find("DistributedSampler", "ElasticDistributedSampler")
    sharded = src.has(
        "DistributedSampler", "split_dataset_by_node", "shard", "num_replicas", "deepspeed_io"
    ) or any(n.startswith("Distributed") and n.endswith("Sampler") for n in src.names)
    # `DistributedBatchSampler`, `DistributedGroupSampler`: a sampler of the script's that shards
    if loaders and not samplers and not sharded:
        train = [c for c in loaders if "train" in ast.dump(src.parents.get(c) or c).lower()]
        yield src.finding(
            (train or loaders)[0],
            f"a DataLoader without a DistributedSampler: each of the {plan.world} ranks reads "
            "the whole dataset every epoch",
            "DataLoader(dataset, sampler=DistributedSampler(dataset), ...)",
            "no_distributed_sampler",
        )
    shuffled = [
        s
        for s in samplers
        if constant(keyword(s, "shuffle")) is not False and not _held_out(src, s)
    ]
    every = [c for c in src.find("DataLoader") if not plan.off(c)] if shuffled else []
    if shuffled and not src.find("set_epoch") and not _one_pass(src, plan, every):
        yield src.finding(
            shuffled[0],
            "DistributedSampler without set_epoch(): every epoch shuffles the same way",
            "sampler.set_epoch(epoch) at the start of each epoch",
            "sampler_no_set_epoch",
            "warning",
        )


def _one_pass(src: ScriptFacts, plan: CheckPlan, loaders: list[ast.Call]) -> bool:
    """Every loop over a training loader is one pass: no loop around it (in its function, or
    around a call of that function), or only a `range` the plan's values make 1 (`max_epoch =
    1`, `--num_train_epochs` left at 1). With no second epoch, no order repeats. False when the
    loader's loops cannot be found (a Trainer iterates it)."""
    names = {_target(src, c) for c in loaders} - {None}
    passes = [
        n
        for module in src.modules
        for n in module.nodes
        if isinstance(n, ast.For | ast.AsyncFor) and _over(n.iter) in names
    ]
    return bool(passes) and not any(_repeated(src, plan, n, 2) for n in passes)


def _target(src: ScriptFacts, call: ast.Call) -> str | None:
    """The name (or attribute) a call's value is assigned to: `train_loader`, `self.loader`."""
    parent = src.parents.get(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        return dotted(parent.targets[0]).split(".")[-1] or None
    return None


def _over(node: ast.AST) -> str | None:
    """What a loop iterates, through `enumerate(…)`, `tqdm(…)`, `iter(…)`: its last name."""
    while isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    return dotted(node).split(".")[-1] or None


def _repeated(src: ScriptFacts, plan: CheckPlan, node: ast.AST, depth: int) -> bool:
    """A loop (a `for` not over a `range` of 1, or a `while`) encloses `node` in its function,
    or encloses a call of that function (`depth` callers up)."""
    current = src.parents.get(node)
    while current is not None and not isinstance(current, ast.FunctionDef | ast.Module):
        if isinstance(current, ast.While) or (
            isinstance(current, ast.For | ast.AsyncFor) and not _once(plan, current)
        ):
            return True
        current = src.parents.get(current)
    if isinstance(current, ast.FunctionDef) and depth:
        return any(_repeated(src, plan, c, depth - 1) for c in src.callers(current))
    return False


def _once(plan: CheckPlan, loop: ast.For | ast.AsyncFor) -> bool:
    """`for epoch in range(n)` with `n` 1 under the plan."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and dotted(it.func) == "range" and len(it.args) == 1):
        return False
    return plan.flow is not None and plan.flow.value_at(it.args[0]).value == 1


def _drawn_per_rank(src: ScriptFacts, loader: ast.Call) -> bool:
    """The loader's sampler draws for this rank: it is told the rank (`MySampler(data, rank)`),
    or its random generator is seeded by it (`g.manual_seed(seed + rank)`, then
    `RandomSampler(data, replacement=True, generator=g)`): each rank its own sample."""
    sampler = _assigned(src, loader, keyword(loader, "sampler"))
    if not isinstance(sampler, ast.Call):
        return False
    if mentions_rank(sampler):
        return True
    generator = keyword(sampler, "generator")
    if not isinstance(generator, ast.Name):
        return False
    scope = src.function_of(loader) or src.module_of[loader].tree
    return any(
        isinstance(n, ast.Call)
        and dotted(n.func) == f"{generator.id}.manual_seed"
        and any(mentions_rank(a) for a in n.args)
        for n in ast.walk(scope)
    )


def _assigned(src: ScriptFacts, at: ast.AST, value: ast.AST | None) -> ast.AST | None:
    """What a name is assigned in the scope of `at` (the value itself when it is no name)."""
    if not isinstance(value, ast.Name):
        return value
    scope = src.function_of(at) or src.module_of[at].tree
    for n in ast.walk(scope):
        if isinstance(n, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == value.id for t in n.targets
        ):
            return n.value
    return None


def _held_out(src: ScriptFacts, sampler: ast.Call) -> bool:
    """A sampler of validation or test data (`val_sampler = DistributedSampler(val_set)`): its
    order does not matter, so no reshuffling is missed."""
    parent = src.parents.get(sampler)
    names = [dotted(t) for t in getattr(parent, "targets", [])] + [dotted(a) for a in sampler.args]
    return any(w in n.lower() for n in names for w in ("val", "eval", "test"))


def _iterable(src: ScriptFacts, loader: ast.Call) -> bool:
    """The loader's dataset is an instance of the script's own IterableDataset."""
    data = keyword(loader, "dataset", 0)
    if isinstance(data, ast.Name):
        scope = src.function_of(loader) or src.module_of[loader].tree
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == data.id for t in node.targets
            ):
                data = node.value
                break
    if not isinstance(data, ast.Call):
        return False
    cls = src.classes.get(dotted(data.func).split(".")[-1])
    return cls is not None and any("Iterable" in dotted(b) for b in cls.bases)


_RANDOM = ("randn", "rand", "randint", "random_", "normal_", "uniform_", "FakeData")


def _synthetic(src: ScriptFacts, data: ast.AST | None, depth: int = 6) -> bool:
    """A dataset of random tensors (`TensorDataset(torch.randn(…), …)`, `FakeData`, or what a
    function of the script returns of them): every rank reading all of it loses nothing."""
    if isinstance(data, ast.Name) and depth:
        scope = src.function_of(data) or src.module_of[data].tree
        made = [
            n.value
            for n in ast.walk(scope)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == data.id for t in n.targets)
        ]
        return len(made) == 1 and _synthetic(src, made[0], depth - 1)
    if not isinstance(data, ast.Call) or not depth:
        return False
    last = dotted(data.func).split(".")[-1]
    if last in _RANDOM:
        return True
    if last == "TensorDataset":
        return bool(data.args) and all(_synthetic(src, a, depth - 1) for a in data.args)
    for fn in src.functions.get(last, []) if len(src.functions.get(last, [])) == 1 else []:
        returns = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value]
        return len(returns) == 1 and _synthetic(src, returns[0], depth - 1)
    if isinstance(data.func, ast.Attribute):  # torch.empty(n).random_(k)
        return _synthetic(src, data.func.value, depth - 1)
    return False
