"""What a plan is made of: `Target`, nodes, ranks, env vars with who sets them, `LaunchPlan`.

These types sit below both `plan.py` (which builds them) and `explain.py` (which reads them), so
neither imports the other back.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, overload

from tui.core.catalog import Sku
from tui.core.spec import JobSpec

AZUREML_MASTER_PORT = 6105
TF_PORT = 2222


class Origin(str, Enum):
    """Who sets an environment variable in a running rank."""

    AZUREML = "Azure ML"
    TORCHRUN = "torchrun"
    ACCELERATE = "accelerate"
    OPENMPI = "Open MPI"
    COMMAND = "job command"
    USER = "you"
    LIGHTNING = "Lightning"
    DEEPSPEED = "DeepSpeed"
    TENSORFLOW = "TensorFlow"

    @property
    def in_process(self) -> bool:
        """Set by the framework inside the training process (on import or at setup), not by
        whoever starts it: a launcher passes these on to nobody."""
        return self in (Origin.LIGHTNING, Origin.DEEPSPEED, Origin.TENSORFLOW)


@dataclass(frozen=True, slots=True)
class EnvVar:
    """One variable as a rank sees it, who set it, and what it replaced."""

    name: str
    value: str
    origin: Origin
    note: str = ""


@dataclass(frozen=True)
class Target:
    """Where a plan runs: an Azure ML cluster, or this machine."""

    kind: Literal["azureml", "local"]
    master_port: int
    ports: tuple[int, ...] = ()
    """Free loopback ports for TensorFlow tasks (local only)."""
    cpus: int | None = None
    """CPU cores this process may use (local only): Lightning sizes OMP_NUM_THREADS by them."""

    @property
    def master_addr(self) -> str:
        return self.host(0)

    def host(self, node: int) -> str:
        """A node's address: a placeholder on Azure (known when the job starts), loopback here."""
        return "127.0.0.1" if self.kind == "local" else f"<node-{node}-ip>"

    def task_port(self, task: int) -> int:
        if self.kind == "azureml":
            return TF_PORT
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
        except OSError as err:  # EMFILE for thousands of TensorFlow tasks
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
        # Only TensorFlow tasks need a port each; other frameworks meet at the master's.
        tasks = spec.nodes + spec.parameter_servers if spec.framework == "tensorflow" else 0
        return Target.local(tasks)


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
        if self.type == "tensorflow":
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
    """"worker" or "ps" (TensorFlow parameter server); "worker" for every other framework."""
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
    """The per-node launcher in the command (torchrun, accelerate, lightning), if any."""
    world_size: int
    nodes: tuple[NodePlan, ...]
    ranks: Ranks
    warnings: tuple[str, ...]
    explanations: tuple[str, ...]
    env_vars: dict[str, str] = field(default_factory=dict)
    """Job-level environment_variables (the user's)."""
    deepspeed_config: dict[str, Any] | None = None
    """The ds_config.json built from the plan (DeepSpeed jobs without a config file of theirs)."""

    @property
    def workers_per_node(self) -> int:
        return self.nodes[0].workers

    def rank(self, rank: int) -> RankPlan:
        return self.ranks[rank]
