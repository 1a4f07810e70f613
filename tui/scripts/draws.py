"""The script check's rules about what each rank draws, for every framework:

- a split or a sampler whose randomness differs between ranks where the ranks must agree: a
  DistributedSampler's `seed=` taken from the rank (its shards are cut from one permutation every
  rank must share: ranks overlap and skip data), a random train/validation split
  (`random_split`, `train_test_split`) seeded from the rank or not seeded at all, which every
  rank makes for itself (each rank trains on examples another holds out);
- a dataset whose size the script states, too small for the plan's ranks x batch: a loader that
  drops the last partial batch gets no batch at all on each rank (an empty epoch, or a division
  by zero where the script averages over its batches).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tui.scripts.check_plan import CheckPlan
from tui.scripts.facts import Finding, ScriptFacts, mentions_rank
from tui.scripts.syntax import constant, dotted, keyword

_SPLITS = {"random_split": "generator", "train_test_split": "random_state", "shuffle": "seed"}
"""Random splits, and the argument the fix names to seed each (else a global generator)."""
_SEED_WORDS = ("generator", "random_state", "seed")
"""The arguments that seed a split: torch's, scikit-learn's, Hugging Face datasets'."""
_SAME_SEED = {
    "random_split": "torch.Generator().manual_seed(42)",
    "train_test_split": "42",
    "shuffle": "42",
}
"""What each split's seeding argument is given to be the same on every rank."""
_SIZED = {"randn": 0, "rand": 0, "zeros": 0, "ones": 0, "empty": 0, "randint": 2, "arange": 0}
"""Tensor makers, and the argument whose first number is the first dimension (randint's size)."""


def draw_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Every rule of this module: seeds the ranks must share, sizes the ranks must split."""
    yield from seed_rules(src, plan)
    yield from size_rules(src, plan)


def seed_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """Samplers and splits that the ranks make differently."""
    for sampler in src.find("DistributedSampler"):
        seed = keyword(sampler, "seed")
        if seed is not None and _per_rank(src, seed) and not plan.off(sampler):
            yield src.finding(
                sampler,
                f"the DistributedSampler's seed differs per rank ({ast.unparse(seed)}): each of "
                f"the {plan.world} ranks cuts its shard from its own permutation, so shards "
                "overlap and part of the data is never read",
                "give every rank the same seed (DistributedSampler(data, seed=args.seed))",
                "seed_per_process",
            )
    seeds = [c for name, c in src.calls if "seed" in name.split(".")[-1].lower()]
    for name, call in src.calls:
        last = name.split(".")[-1]
        if last not in _SPLITS or plan.off(call) or src.guarded_by_rank(call):
            continue
        if last == "shuffle" and not _dataset_shuffle(src, call):
            continue
        if constant(keyword(call, "shuffle")) is False:
            continue  # a split in order is the same everywhere
        source = next((k for k in _SEED_WORDS if keyword(call, k) is not None), None)
        global_seeds = [c for c in seeds if _seeds_for(dotted(c.func), last)]
        how = _how_seeded(src, keyword(call, source) if source else None, global_seeds)
        if how is None:
            continue
        yield src.finding(
            call,
            f"{last}() runs on every rank and is {how}: each of the {plan.world} ranks "
            + (
                "orders the data its own way, so the shares cut from it by index overlap and "
                "part of the data is never read"
                if last == "shuffle"
                else "splits the data its own way, so ranks train on examples others hold out "
                "(and validate on examples others train on)"
            ),
            f"seed the split the same on every rank "
            f"({last}(..., {_SPLITS[last]}={_SAME_SEED[last]}))",
            "seed_per_process",
        )
    yield from _shuffled_then_sharded(src, plan, seeds)


_NUMPY = ("train_test_split", "shuffle")
_ONE_LIBRARY = {"torch": ("random_split",), "numpy": _NUMPY, "np": _NUMPY}
"""Seeders of one library's generator (`torch.manual_seed`, `np.random.seed`), and the draws
from it: sklearn's and Hugging Face datasets' `train_test_split`, and datasets' `shuffle()`,
use numpy's."""


def _seeds_for(seeder: str, split: str) -> bool:
    """`seeder` seeds the global generator `split` draws from: its own library's, or any helper
    that seeds them all (`set_seed`, `seed_everything`, a script's own)."""
    head = seeder.split(".")[0]
    if head in _ONE_LIBRARY:
        return split in _ONE_LIBRARY[head]
    return head != "random"  # Python's `random.seed` seeds neither


def _how_seeded(src: ScriptFacts, source: ast.AST | None, seeds: list[ast.Call]) -> str | None:
    """How a draw whose own seed is `source` (None: the library's global generator) differs
    between ranks, in words; None when every rank draws the same."""
    if source is not None:
        return f"seeded per rank ({ast.unparse(source)})" if _per_rank(src, source) else None
    if any(c.args and not any(_per_rank(src, a) for a in c.args) for c in seeds):
        return None  # a global seed the ranks share makes the draw the same everywhere
    if any(any(_per_rank(src, a) for a in c.args) for c in seeds):
        return "drawn from a global seed that differs per rank"
    return "not seeded"


def _dataset_shuffle(src: ScriptFacts, call: ast.Call) -> bool:
    """`train_data.shuffle()`: a Hugging Face dataset's shuffle, given nothing (a list's
    `random.shuffle(x)`, a stream's `.shuffle(buffer_size)` are given an argument), in a script
    that uses `datasets`: it draws its order from numpy's global generator. Not the held-out
    data's, which trains nothing."""
    statement = src.statement(call)
    held_out = isinstance(statement, ast.Assign) and any(
        w in dotted(t).lower() for t in statement.targets for w in ("val", "test", "eval")
    )  # `val_data = train_val["test"].shuffle()…`: evaluation only, no training share
    return (
        isinstance(call.func, ast.Attribute)
        and not call.args
        and not call.keywords
        and not held_out
        and src.imports_any("datasets")
    )


_SHUFFLES = ("random.shuffle", "np.random.shuffle", "numpy.random.shuffle")
_PERMUTATIONS = ("np.random.permutation", "numpy.random.permutation", "torch.randperm")


def _shuffled_then_sharded(
    src: ScriptFacts, plan: CheckPlan, seeds: list[ast.Call]
) -> Iterator[Finding]:
    """A list shuffled on every rank (`random.shuffle(files)`, `idx = np.random.permutation(n)`)
    and then cut by the rank (`files[rank::world]`): unless every rank shuffles alike, the
    shards overlap and some data is never read."""
    for name, call in src.calls:
        if name not in _SHUFFLES and name not in _PERMUTATIONS:
            continue
        if plan.off(call) or src.guarded_by_rank(call):
            continue
        if name in _SHUFFLES and call.args and isinstance(call.args[0], ast.Name):
            shuffled = call.args[0].id
        elif name in _PERMUTATIONS:
            parent = src.parents.get(call)
            targets = getattr(parent, "targets", [])
            if len(targets) != 1 or not isinstance(targets[0], ast.Name):
                continue
            shuffled = targets[0].id
        else:
            continue
        scope = src.function_of(call) or src.module_of[call].tree
        if not _cut_by_rank(src, scope, shuffled):
            continue
        source = keyword(call, "generator")
        how = _how_seeded(src, source, seeds)
        if how is None:
            continue
        yield src.finding(
            call,
            f"{name}() is {how}, and each rank then takes its share of the result by its rank: "
            f"the {plan.world} ranks cut their shares from different orders, so shares overlap "
            "and part of the data is never read",
            "shuffle with a seed every rank shares (random.Random(seed).shuffle(files)), then "
            "take the rank's share",
            "seed_per_process",
        )


def _cut_by_rank(src: ScriptFacts, scope: ast.AST, name: str) -> bool:
    """`name[rank::world]`, `name[rank * n:(rank + 1) * n]` (or a list made from it) in
    `scope`."""
    for node in ast.walk(scope):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and isinstance(node.slice, ast.Slice)
            and mentions_rank(node.slice, src.rank_words)
        ):
            return True
    return False


def _per_rank(src: ScriptFacts, node: ast.AST, depth: int = 3) -> bool:
    """A value made from the rank: it names one, or is a generator seeded with one
    (`g = torch.Generator(); g.manual_seed(seed + rank)`), or a name assigned such a value."""
    if mentions_rank(node, src.rank_words):
        return True
    if depth <= 0:
        return False
    if isinstance(node, ast.Call):
        return any(_per_rank(src, a, depth - 1) for a in node.args) or (
            isinstance(node.func, ast.Attribute) and _per_rank(src, node.func.value, depth - 1)
        )
    if not isinstance(node, ast.Name):
        return False
    scope = src.function_of(node) or src.module_of[node].tree
    for n in ast.walk(scope):
        assigned = isinstance(n, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == node.id for t in n.targets
        )
        if assigned and _per_rank(src, n.value, depth - 1):  # type: ignore[union-attr]
            return True
        if (
            isinstance(n, ast.Call)
            and dotted(n.func) == f"{node.id}.manual_seed"
            and any(_per_rank(src, a, depth - 1) for a in n.args)
        ):
            return True
    return False


def size_rules(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """A stated dataset size under the plan's ranks x batch, in a loader that drops the
    partial batch."""
    if plan.flow is None:
        return
    for loader in src.find("DataLoader"):
        if constant(keyword(loader, "drop_last")) is not True or plan.off(loader):
            continue
        if not _sharded(src, loader):
            continue
        batch = plan.flow.value_at(keyword(loader, "batch_size", 1)).value
        size = _size(src, plan, keyword(loader, "dataset", 0))
        if not isinstance(batch, int) or not isinstance(size, int) or batch <= 0 or size <= 0:
            continue
        per_rank = -(-size // plan.world)
        if per_rank < batch:
            yield src.finding(
                loader,
                f"the dataset has {size} examples: over the plan's {plan.world} ranks that is "
                f"{per_rank} each, under one batch of {batch}, and the loader drops the partial "
                "batch: every rank gets zero batches (an empty epoch)",
                f"a dataset of at least {plan.world * batch} examples, a smaller batch, or "
                "drop_last=False",
                "zero_batches_per_rank",
            )


def _sharded(src: ScriptFacts, loader: ast.Call) -> bool:
    """The loader's sampler is a DistributedSampler (in the call or assigned to its name)."""
    sampler = keyword(loader, "sampler")
    if isinstance(sampler, ast.Name):
        sampler = _assigned(src, loader, sampler.id)
    return isinstance(sampler, ast.Call) and dotted(sampler.func).endswith("DistributedSampler")


def _size(src: ScriptFacts, plan: CheckPlan, data: ast.AST | None, depth: int = 3) -> object:
    """The number of examples of a dataset the script states: `TensorDataset(torch.randn(N,
    …))`, `FakeData(size=N)`, `range(N)`, followed through names; None when not stated."""
    assert plan.flow is not None
    if isinstance(data, ast.Name) and depth > 0:
        return _size(src, plan, _assigned(src, data, data.id), depth - 1)
    if not isinstance(data, ast.Call):
        return None
    last = dotted(data.func).split(".")[-1]
    if last == "TensorDataset" and data.args:
        return _size(src, plan, data.args[0], depth)
    sized_by = _own_dataset(src, last)
    if sized_by is not None and len(data.args) > sized_by:
        return _size(src, plan, data.args[sized_by], depth)
    listed = data.args[0] if data.args else None
    if last in ("tensor", "array", "as_tensor") and isinstance(listed, ast.List):
        return len(listed.elts)  # torch.tensor([[...], [...]]): one example a row
    if last == "FakeData":
        return plan.flow.value_at(keyword(data, "size", 0)).value
    if last == "range" and len(data.args) == 1:
        return plan.flow.value_at(data.args[0]).value
    if last in _SIZED and len(data.args) > _SIZED[last]:
        first = data.args[_SIZED[last]]
        if isinstance(first, ast.Tuple | ast.List) and first.elts:
            first = first.elts[0]
        return plan.flow.value_at(first).value
    return None


def _own_dataset(src: ScriptFacts, name: str) -> int | None:
    """For a dataset class of the script's code whose length is one of its arguments' (`def
    __len__(self): return self.labels.shape[0]` after `self.labels = y`): that argument's
    position in the call; None otherwise."""
    made = src.classes.get(name)
    if made is None:
        return None
    init = next((f for f in made.body if getattr(f, "name", "") == "__init__"), None)
    size = next((f for f in made.body if getattr(f, "name", "") == "__len__"), None)
    if not isinstance(init, ast.FunctionDef) or size is None:
        return None
    params = [a.arg for a in init.args.args[1:]]
    kept = {  # self.labels = y: the attribute an argument is kept in
        dotted(t).split(".")[-1]: params.index(n.value.id)
        for n in ast.walk(init)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in params
        for t in n.targets
    }
    returned = [r.value for r in ast.walk(size) if isinstance(r, ast.Return) and r.value]
    if len(returned) != 1:
        return None
    used = {n.attr for n in ast.walk(returned[0]) if isinstance(n, ast.Attribute)} & set(kept)
    return kept[used.pop()] if len(used) == 1 else None


def _assigned(src: ScriptFacts, at: ast.AST, name: str) -> ast.AST | None:
    """The value `name` is assigned in the scope of `at`, when it is assigned once there."""
    scope = src.function_of(at) or src.module_of[at].tree
    values = [
        n.value
        for n in ast.walk(scope)
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
    ]
    return values[0] if len(values) == 1 else None
