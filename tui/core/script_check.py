"""Read a training script with `ast` (never import or run it) and say what the Azure ML
distributed-training guide expects of it for the chosen framework and launch, and what it lacks.

Each finding has the line it is about (or None when something is missing altogether) and the
fix. Findings are advice: a script can be right in ways a reader of its source cannot see, so
they never block a job.
- PyTorch (and DeepSpeed, Hugging Face without Trainer/Accelerate): the process group from
  `env://` with a backend that fits the device (nccl on GPUs, gloo on CPUs) and a timeout;
  LOCAL_RANK picks the device; a DistributedSampler, and `set_epoch` each epoch; checkpoints
  and metrics written by rank 0 only.
- Lightning: `Trainer(num_nodes=…, devices=…)` agreeing with the plan (the guide's multi-node
  pitfall: a Trainer left at one node trains each node alone).
- DeepSpeed: `deepspeed.initialize`, and the `--deepspeed_config` the command passes handled.
- TensorFlow: the strategy matching the plan (MultiWorkerMirroredStrategy, or
  ParameterServerStrategy when there are parameter servers), which reads TF_CONFIG.
- Horovod: `hvd.init()`, and `hvd.local_rank()` to pin each rank's GPU.
- Hugging Face Trainer / Accelerate read the rank variables themselves: no manual setup.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from tui.core.spec import JobSpec, is_remote


@dataclass(frozen=True)
class Finding:
    """What the guide asks for that the script lacks (or gets wrong), and how to fix it."""

    line: int | None
    what: str
    fix: str

    def text(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.what}; fix: {self.fix}"


@dataclass
class ScriptReport:
    """The check of one script for one plan: findings (advice) and notes (what is fine)."""

    script: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.findings


class ScriptProblem(ValueError):
    """The script cannot be read as Python (the message says why, with the line)."""


# ---------------------------------------------------------------------------------------------
# What the source has


def _dotted(node: ast.AST) -> str:
    """`torch.distributed.init_process_group` for a call's function; "" when not a plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(_dotted(node.func) + "()")
    return ".".join(reversed(parts))


class _Source:
    """The facts the rules need, gathered in one walk over the tree."""

    def __init__(self, tree: ast.Module) -> None:
        self.calls: list[tuple[str, ast.Call]] = []
        self.names: set[str] = set()
        self.strings: set[str] = set()
        self.imports: set[str] = set()
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.Call):
                self.calls.append((_dotted(node.func), node))
            elif isinstance(node, ast.Name):
                self.names.add(node.id)
            elif isinstance(node, ast.Attribute):
                self.names.add(node.attr)
            elif isinstance(node, ast.arg):
                self.names.add(node.arg)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                self.strings.add(node.value)
            elif isinstance(node, ast.Import):
                self.imports |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                self.imports.add(node.module)
                self.names |= {a.name for a in node.names}

    def find(self, *suffixes: str) -> list[ast.Call]:
        """Calls whose function name ends with one of `suffixes` (`init_process_group`)."""
        return [
            call
            for name, call in self.calls
            if any(name == s or name.endswith("." + s) for s in suffixes)
        ]

    def has(self, *names: str) -> bool:
        return any(n in self.names or n in self.strings for n in names)

    def imports_any(self, *modules: str) -> bool:
        return any(m == i or i.startswith(m + ".") for i in self.imports for m in modules)

    def guarded_by_rank(self, node: ast.AST) -> bool:
        """Inside an `if` (or a function only entered under one) that tests the rank."""
        current = self.parents.get(node)
        while current is not None:
            if isinstance(current, ast.If | ast.IfExp) and _mentions_rank(current.test):
                return True
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
                body = current.body
                first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
                # `if not rank0: return` at the top of the function guards the rest.
                if isinstance(first, ast.If) and _mentions_rank(first.test):
                    return True
            current = self.parents.get(current)
        return False


_RANK_WORDS = ("rank", "is_main", "main_process", "main_node", "chief", "global_zero", "master")


def _mentions_rank(test: ast.AST) -> bool:
    for node in ast.walk(test):
        text = ""
        if isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        if any(word in text.lower() for word in _RANK_WORDS):
            return True
    return False


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def _keyword(call: ast.Call, name: str, position: int | None = None) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def _constant(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None


# ---------------------------------------------------------------------------------------------
# Rules


def _torch_ddp(src: _Source, spec: JobSpec, gpus: bool, out: list[Finding]) -> None:
    inits = src.find("init_process_group")
    if not inits and not src.find("init_distributed", "initialize"):
        out.append(
            Finding(
                None,
                "no process group: nothing calls torch.distributed.init_process_group, so each "
                "process trains alone",
                'dist.init_process_group(backend="nccl" if torch.cuda.is_available() else '
                '"gloo", init_method="env://", timeout=datetime.timedelta(minutes=30))',
            )
        )
    for call in inits:
        backend = _constant(_keyword(call, "backend", 0))
        if backend == "nccl" and not gpus:
            out.append(
                Finding(
                    call.lineno,
                    'backend="nccl" needs GPUs; this machine\'s rehearsal runs on CPUs',
                    'backend="nccl" if torch.cuda.is_available() else "gloo"',
                )
            )
        elif backend == "gloo" and gpus:
            out.append(
                Finding(
                    call.lineno,
                    'backend="gloo" on GPUs is many times slower than NCCL',
                    'backend="nccl" if torch.cuda.is_available() else "gloo"',
                )
            )
        method = _constant(_keyword(call, "init_method"))
        if isinstance(method, str) and method != "env://":
            out.append(
                Finding(
                    call.lineno,
                    f"init_method={method!r}: Azure ML and torchrun give the rendezvous through "
                    "MASTER_ADDR / MASTER_PORT",
                    'init_method="env://" (or leave it out)',
                )
            )
        if _keyword(call, "timeout") is None:
            out.append(
                Finding(
                    call.lineno,
                    "no timeout: a large model's first step or checkpoint can outlast the "
                    "default and stop every rank",
                    "timeout=datetime.timedelta(minutes=60) in init_process_group",
                )
            )
    if not src.has("LOCAL_RANK", "local_rank", "OMPI_COMM_WORLD_LOCAL_RANK"):
        out.append(
            Finding(
                None,
                "LOCAL_RANK is never read, so every process on a node uses the same GPU",
                'torch.cuda.set_device(int(os.environ["LOCAL_RANK"])) before building the model',
            )
        )
    loaders = src.find("DataLoader")
    samplers = src.find("DistributedSampler")
    if loaders and not samplers and not src.has("DistributedSampler"):
        out.append(
            Finding(
                loaders[0].lineno,
                "a DataLoader without a DistributedSampler: every rank reads the whole dataset",
                "DataLoader(dataset, sampler=DistributedSampler(dataset), ...)",
            )
        )
    if (samplers or src.has("DistributedSampler")) and not src.find("set_epoch"):
        line = samplers[0].lineno if samplers else None
        out.append(
            Finding(
                line,
                "DistributedSampler without set_epoch(): every epoch shuffles the same way",
                "sampler.set_epoch(epoch) at the start of each epoch",
            )
        )
    _rank_zero_writes(src, out)


_SAVES = ("save_checkpoint", "save_model", "save_pretrained")
_LOGS = ("log_metric", "log_metrics", "log_param", "log_params", "log_artifact")


def _rank_zero_writes(src: _Source, out: list[Finding]) -> None:
    for name, call in src.calls:
        last = name.split(".")[-1]
        saving = name == "torch.save" or last in _SAVES
        if not saving and not (name.startswith("mlflow.") and last in _LOGS):
            continue
        if src.guarded_by_rank(call):
            continue
        out.append(
            Finding(
                call.lineno,
                f"{name}() runs on every rank: "
                + ("each writes the same checkpoint" if saving else "each logs the same metric"),
                "only on rank 0: `if int(os.environ.get('RANK', 0)) == 0:`",
            )
        )
        return  # one is enough to make the point


def _lightning(src: _Source, spec: JobSpec, out: list[Finding]) -> None:
    trainers = src.find("Trainer")
    from_args = src.find("from_argparse_args")
    if from_args and spec.command is None:
        out.append(
            Finding(
                from_args[0].lineno,
                "Trainer.from_argparse_args reads --num_nodes and --devices, but the command "
                f"passes --trainer.num_nodes {spec.nodes} --trainer.devices "
                f"{spec.gpus_per_node} (LightningCLI's names)",
                f"Full command: python {spec.script} --num_nodes {spec.nodes} --devices "
                f"{spec.gpus_per_node} (plus your arguments)",
            )
        )
        return
    if not trainers:
        if src.find("LightningCLI"):
            return  # LightningCLI takes --trainer.num_nodes / --trainer.devices from the command
        out.append(
            Finding(
                None,
                "no Trainer(...) found: Lightning needs num_nodes and devices to span the nodes",
                f"Trainer(num_nodes={spec.nodes}, devices={spec.gpus_per_node}, strategy='ddp')",
            )
        )
        return
    for call in trainers:
        for kw, want in (("num_nodes", spec.nodes), ("devices", spec.gpus_per_node)):
            value = _keyword(call, kw)
            if kw == "devices" and value is None:
                value = _keyword(call, "gpus")
            if value is None and kw == "num_nodes" and spec.nodes > 1:
                out.append(
                    Finding(
                        call.lineno,
                        f"Trainer without num_nodes trains on one node: with {spec.nodes} nodes "
                        "each trains alone (the guide's multi-node pitfall)",
                        f"Trainer(num_nodes={spec.nodes}, ...), or from an argument",
                    )
                )
            elif isinstance(_constant(value), int) and _constant(value) != want:
                out.append(
                    Finding(
                        call.lineno,
                        f"Trainer({kw}={_constant(value)}) but the plan has {want}",
                        f"Trainer({kw}={want}), or read it from an argument",
                    )
                )


def _deepspeed(src: _Source, spec: JobSpec, out: list[Finding]) -> None:
    if not src.find("deepspeed.initialize", "initialize"):
        out.append(
            Finding(
                None,
                "deepspeed.initialize(...) is never called: the model is not a DeepSpeed engine",
                "model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, "
                "model_parameters=model.parameters())",
            )
        )
    reads_config = (
        src.find("add_config_arguments")
        or src.has("--deepspeed_config", "deepspeed_config")
        or src.find("parse_known_args")
    )
    if spec.command is None and not reads_config:
        out.append(
            Finding(
                None,
                "the command passes --deepspeed --deepspeed_config "
                f"{spec.deepspeed_config or 'ds_config.json'}, which this script does not accept",
                "parser = deepspeed.add_config_arguments(parser) before parse_args()",
            )
        )


def _tensorflow(src: _Source, spec: JobSpec, out: list[Finding]) -> None:
    mwms = src.find("MultiWorkerMirroredStrategy")
    ps = src.find("ParameterServerStrategy")
    mirrored = src.find("MirroredStrategy")
    if spec.parameter_servers and not ps:
        out.append(
            Finding(
                (mwms or [None])[0] and mwms[0].lineno,
                f"the plan has {spec.parameter_servers} parameter server task(s) but the script "
                "does not use ParameterServerStrategy",
                "tf.distribute.experimental.ParameterServerStrategy(cluster_resolver), or set "
                "parameter servers to 0",
            )
        )
    elif not spec.parameter_servers and ps:
        out.append(
            Finding(
                ps[0].lineno,
                "ParameterServerStrategy but the plan has no parameter server tasks",
                "add parameter servers on Resources, or use MultiWorkerMirroredStrategy",
            )
        )
    elif not spec.parameter_servers and not mwms and spec.nodes > 1:
        line = mirrored[0].lineno if mirrored else None
        out.append(
            Finding(
                line,
                (
                    "MirroredStrategy uses one machine's GPUs"
                    if mirrored
                    else "no tf.distribute strategy"
                )
                + f": the {spec.nodes} workers in TF_CONFIG would each train alone",
                "strategy = tf.distribute.MultiWorkerMirroredStrategy() (it reads TF_CONFIG), "
                "and build the model inside strategy.scope()",
            )
        )


def _horovod(src: _Source, out: list[Finding]) -> None:
    if not src.find("hvd.init", "init") or not src.imports_any("horovod"):
        out.append(
            Finding(None, "hvd.init() is never called", "import horovod.torch as hvd; hvd.init()")
        )
    if not src.find("local_rank"):
        out.append(
            Finding(
                None,
                "hvd.local_rank() is never used, so every rank on a node uses the same GPU",
                "torch.cuda.set_device(hvd.local_rank()) (TensorFlow: "
                "tf.config.set_visible_devices(gpus[hvd.local_rank()], 'GPU'))",
            )
        )
    _rank_zero_writes(src, out)


# ---------------------------------------------------------------------------------------------
# Entry points


def check_source(
    source: str, spec: JobSpec, script: str = "train.py", gpus: bool = True
) -> ScriptReport:
    """Check `source` for `spec`; `gpus` is whether the ranks get GPUs (False: a CPU rehearsal).

    Raises ScriptProblem when it is not valid Python.
    """
    try:
        tree = ast.parse(source, filename=script)
    except SyntaxError as err:
        raise ScriptProblem(f"{script}: line {err.lineno}: {err.msg}") from None
    src = _Source(tree)
    report = ScriptReport(script)
    world = spec.nodes * (1 if spec.framework == "tensorflow" else spec.gpus_per_node)
    if world <= 1:
        report.notes.append("one process: there is nothing distributed to check")
        return report
    out = report.findings
    framework = spec.framework
    if framework == "huggingface" or src.find("Accelerator") or _hf_trainer(src):
        if src.find("Accelerator") or _hf_trainer(src):
            report.notes.append(
                "Hugging Face Trainer / Accelerate read RANK, LOCAL_RANK and WORLD_SIZE "
                "themselves: no process group, sampler or rank-0 guard to write"
            )
            return report
        report.notes.append("no Trainer or Accelerator: checked as a plain PyTorch DDP loop")
        framework = "pytorch"
    if framework == "pytorch":
        _torch_ddp(src, spec, gpus, out)
    elif framework == "lightning":
        _lightning(src, spec, out)
    elif framework == "deepspeed":
        _deepspeed(src, spec, out)
    elif framework == "tensorflow":
        _tensorflow(src, spec, out)
    elif framework == "horovod":
        _horovod(src, out)
    if not out:
        report.notes.append("it has what the guide asks of a distributed script")
    return report


def _hf_trainer(src: _Source) -> bool:
    return bool(src.find("Trainer", "Seq2SeqTrainer", "SFTTrainer")) and src.imports_any(
        "transformers", "trl"
    )


def check_spec(spec: JobSpec, base: Path | None = None, gpus: bool = True) -> ScriptReport | None:
    """The check of the spec's script on this machine; None when there is no script to read
    (a full command, remote code, or a file that is not there yet)."""
    if spec.command is not None or (spec.code is not None and is_remote(spec.code)):
        return None
    path = Path(base or Path.cwd(), spec.code or ".", spec.script)
    if path.suffix != ".py" or not path.is_file():
        return None
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return check_source(source, spec, spec.script, gpus)
