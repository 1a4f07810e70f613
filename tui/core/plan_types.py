"""What a plan is made of: `Target`, nodes, ranks, env vars with who sets them, `LaunchPlan`.

These types sit below both `plan.py` (which builds them) and `explain.py` (which reads them), so
neither imports the other back.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, overload

from tui.core.catalog import Sku
from tui.core.files import write_atomic

if TYPE_CHECKING:
    from tui.core.spec import JobSpec

AZUREML_MASTER_PORT = 6105
TASK_PORT = 2222
"""Where each task listens on its node on Azure ML (processes with a port of their own)."""


OriginKind = Literal["platform", "launcher", "framework", "command", "user"]


@dataclass(frozen=True)
class Origin:
    """Who sets an environment variable in a running rank: the platform (Azure ML), a launcher
    (Open MPI's mpirun; each framework module names its own), the framework inside the training
    process, the job command, or the user. Every origin made is listed by `Origin.known()`."""

    value: str
    kind: OriginKind

    _known: ClassVar[dict[str, Origin]] = {}
    AZUREML: ClassVar[Origin]
    OPENMPI: ClassVar[Origin]
    COMMAND: ClassVar[Origin]
    USER: ClassVar[Origin]

    def __post_init__(self) -> None:
        Origin._known.setdefault(self.value, self)

    @property
    def in_process(self) -> bool:
        """Set by the framework inside the training process (on import or at setup), not by
        whoever starts it: a launcher passes these on to nobody."""
        return self.kind == "framework"

    @staticmethod
    def known() -> tuple[Origin, ...]:
        """Every origin, in the order they were made (the generic ones first)."""
        return tuple(Origin._known.values())


Origin.AZUREML = Origin("Azure ML", "platform")
Origin.OPENMPI = Origin("Open MPI", "launcher")
Origin.COMMAND = Origin("job command", "command")
Origin.USER = Origin("you", "user")


@dataclass(frozen=True, slots=True)
class EnvVar:
    """One variable as a rank sees it, who set it, and what it replaced."""

    name: str
    value: str
    origin: Origin
    note: str = ""


class EnvBuilder:
    """Ordered EnvVars; a later setter replaces an earlier one and notes what it replaced."""

    __slots__ = ("_vars",)

    def __init__(self, base: dict[str, EnvVar] | None = None) -> None:
        self._vars: dict[str, EnvVar] = dict(base) if base else {}

    def set(self, origin: Origin, **values: object) -> EnvBuilder:
        for name, value in values.items():
            old = self._vars.get(name)
            note = ""
            if old is not None and old.origin is not origin and old.value != str(value):
                note = f"replaces {old.origin.value}'s {old.value}"
            self._vars[name] = EnvVar(name, str(value), origin, note)
        return self

    def defaults(self, origin: Origin, **values: object) -> EnvBuilder:
        """Set only the variables not set yet (what a launcher does with its defaults)."""
        return self.set(origin, **{k: v for k, v in values.items() if k not in self._vars})

    def done(self) -> tuple[EnvVar, ...]:
        return tuple(self._vars.values())

    @property
    def vars(self) -> dict[str, EnvVar]:
        return self._vars


@dataclass(frozen=True)
class Target:
    """Where a plan runs: an Azure ML cluster, or this machine."""

    kind: Literal["azureml", "local"]
    master_port: int
    ports: tuple[int, ...] = ()
    """Free loopback ports for tasks that listen on ports of their own (local only)."""
    cpus: int | None = None
    """CPU cores this process may use (local only): frameworks size their threads by them."""

    @property
    def master_addr(self) -> str:
        return self.host(0)

    def host(self, node: int) -> str:
        """A node's address: a placeholder on Azure (known when the job starts), loopback here."""
        return "127.0.0.1" if self.kind == "local" else f"<node-{node}-ip>"

    def task_port(self, task: int) -> int:
        if self.kind == "azureml":
            return TASK_PORT
        if task >= len(self.ports):
            raise ValueError(
                f"the local target has {len(self.ports)} free ports, task {task} needs one"
            )
        return self.ports[task]

    @staticmethod
    def local(ports: int = 1) -> Target:
        """This machine, with `ports` + 1 free loopback ports (the master's first)."""
        socks = []
        try:
            for _ in range(ports + 1):
                s = socket.socket()
                s.bind(("127.0.0.1", 0))
                socks.append(s)
            numbers = [s.getsockname()[1] for s in socks]
        except OSError as err:  # EMFILE for thousands of tasks
            raise ValueError(
                f"this machine could not give {ports + 1} free loopback ports "
                f"({err.strerror}); rehearse fewer nodes here"
            ) from None
        finally:
            for s in socks:
                s.close()
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return Target("local", numbers[0], tuple(numbers[1:]), cpus)

    @staticmethod
    def for_spec(kind: str, spec: JobSpec) -> Target:
        """The target `kind` ("azureml" or "local") with enough ports for `spec`."""
        if kind == "azureml":
            return AZUREML
        return Target.local(spec.tasks_with_ports)


AZUREML = Target("azureml", AZUREML_MASTER_PORT)


@dataclass(frozen=True, slots=True)
class Distribution:
    """The azure-ai-ml distribution, in YAML field names.

    `none`: the job has no `distribution:` (not distributed). Any other type the wizard does not
    model (ray, …) comes from an imported file and is written back as it was (`as_written`).
    """

    type: str
    process_count_per_instance: int | None = None
    worker_count: int | None = None
    parameter_server_count: int | None = None
    as_written: dict[str, Any] | None = None

    def as_yaml(self) -> dict[str, Any]:
        """The `distribution:` mapping; empty when the job has none."""
        if self.as_written is not None:
            return dict(self.as_written)
        if self.type == "none":
            return {}
        out: dict[str, Any] = {"type": self.type}
        if self.worker_count is not None:
            out["worker_count"] = self.worker_count
            out["parameter_server_count"] = self.parameter_server_count
        else:
            out["process_count_per_instance"] = self.process_count_per_instance
        return out


@dataclass(frozen=True, slots=True)
class NodePlan:
    """One node: what Azure ML sets on it and what it runs."""

    node: int
    role: str
    """The task's role where processes are tasks ("worker", "ps": a parameter server);
    "worker" everywhere else."""
    env: tuple[EnvVar, ...]
    command: str
    """The job command with this node's values filled in where they are known."""
    processes: int
    """Processes Azure ML starts on this node (process_count_per_instance)."""
    workers: int
    """Ranks that end up running on this node (a launcher may start more than Azure ML)."""


@dataclass(frozen=True, slots=True)
class RankPlan:
    """One training process and every variable it sees."""

    rank: int
    node: int
    local_rank: int
    env: tuple[EnvVar, ...]
    log_file: str
    role: str = "worker"
    task_index: int = 0

    def env_dict(self) -> dict[str, str]:
        return {v.name: v.value for v in self.env}


class Ranks(Sequence[RankPlan]):
    """Every rank of a plan, built on first access; the last `KEEP` built are kept.

    A 1,024-rank plan is made on every keystroke in the wizard, which shows a screenful of
    ranks; building each rank's env only when something reads it keeps that cheap. Keeping only
    the most recent ones bounds memory by what is shown, not by the world size: printing every
    rank of a 4,000-node job streams them instead of holding them all.
    """

    __slots__ = ("_built", "_count", "_make")
    KEEP = 4096

    def __init__(self, count: int, make: Callable[[int], RankPlan]) -> None:
        self._count = count
        self._built: dict[int, RankPlan] = {}
        self._make = make

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> RankPlan: ...
    @overload
    def __getitem__(self, index: slice) -> list[RankPlan]: ...
    def __getitem__(self, index: int | slice) -> RankPlan | list[RankPlan]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(f"rank {index} out of range")
        built = self._built.get(index)
        if built is None:
            if len(self._built) >= self.KEEP:
                del self._built[next(iter(self._built))]  # the oldest built
            built = self._built[index] = self._make(index)
        return built


class ConfigFileProblem(ValueError):
    """A config file that cannot be written where the command reads it (one line)."""


@dataclass(frozen=True)
class ConfigFile:
    """A file the job's command reads that the plan builds from its numbers, and why each
    number is what it is."""

    name: str
    """Its file name in the code folder, e.g. ds_config.json."""
    title: str
    """What it is, in a few words."""
    field: str
    """The spec field that names the user's own file instead (said when one is in the way)."""
    data: dict[str, Any]
    explanations: tuple[str, ...] = ()

    def render(self) -> str:
        return json.dumps(self.data, indent=2) + "\n"

    def write(self, folder: Path, force: bool = False) -> Path:
        """Write it as `folder/name`; a different file there is kept unless `force`.

        Returns the path. Raises ConfigFileProblem when a different file is in the way or the
        write fails.
        """
        path = folder / self.name
        text = self.render()
        if path.exists() and not force:
            try:
                same = path.read_text(encoding="utf-8") == text
            except (OSError, UnicodeDecodeError):
                same = False
            if same:
                return path
            raise ConfigFileProblem(
                f"{path} exists and differs from the config built for this job; point "
                f"{self.field} at it to use yours, or add --force to replace it"
            )
        try:
            write_atomic(path, text)
        except OSError as err:
            raise ConfigFileProblem(f"{path}: cannot be written ({err.strerror or err})") from None
        return path


@dataclass(frozen=True)
class LaunchPlan:
    """Everything that will run, derived from one spec for one target."""

    spec: JobSpec
    target: Target
    sku: Sku | None
    instance_count: int
    distribution: Distribution
    command: str
    environment: str | dict[str, Any]
    launcher: str | None
    """The per-node launcher in the command, if any (the framework module names it)."""
    world_size: int
    nodes: tuple[NodePlan, ...]
    ranks: Ranks
    warnings: tuple[str, ...]
    explanations: tuple[str, ...]
    env_vars: dict[str, str] = field(default_factory=dict)
    """Job-level environment_variables (the user's, and those dtrain-tui's in-job helpers read)."""
    inputs: dict[str, dict[str, str]] = field(default_factory=dict)
    """Job inputs dtrain-tui adds beside the user's (its in-job helpers' folder on Azure ML)."""
    config_file: ConfigFile | None = None
    """A config file built from the plan that the command reads (written into the code folder)."""
    launcher_spawns: bool = False
    """The per-node launcher starts the node's workers itself (and sets their ranks)."""
    tasks: bool = False
    """Processes are tasks named by role and index (`RankPlan.role`, `task_index`), one per
    node, with no rank or WORLD_SIZE: the framework's own words."""

    @property
    def workers_per_node(self) -> int:
        return self.nodes[0].workers

    def rank(self, rank: int) -> RankPlan:
        return self.ranks[rank]
