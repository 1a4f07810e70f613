"""The job command: the script with its arguments, wrapped in the per-node launcher if any.

Arguments are quoted for the shell so they reach the script exactly as typed. The same builder
makes the command as submitted (with `$NODE_RANK`…) and as one node runs it (values filled in).
The framework (`tui.frameworks`) says which launcher, which arguments it adds and whether
mpirun starts the processes.
"""

from __future__ import annotations

from tui.core.spec import JobSpec
from tui.frameworks import registry
from tui.frameworks.base import Launcher, Refs, mpi_node_prefix, quote

__all__ = ["Refs", "build_command", "framework_args", "launcher_for", "launcher_of", "uses_mpi"]


def framework_args(spec: JobSpec) -> list[str]:
    """Arguments dtrain-tui adds to the script's own (only when it builds the command)."""
    return registry.get(spec.framework).args(spec)


def launcher_of(spec: JobSpec) -> Launcher | None:
    """The per-node launcher dtrain-tui wraps the script in, or finds in a given command."""
    framework = registry.get(spec.framework)
    if spec.launch != "per_node" or framework.one_task_per_node:
        return None
    if spec.command is not None:
        return registry.detect_launcher(spec.command)
    return framework.launcher(spec)


def launcher_for(spec: JobSpec) -> str | None:
    """The name of `launcher_of(spec)`."""
    launcher = launcher_of(spec)
    return launcher.name if launcher else None


def uses_mpi(spec: JobSpec) -> bool:
    """Whether Azure ML's mpi distribution (mpirun) starts the processes."""
    return registry.get(spec.framework).uses_mpi(spec)


SUBMITTED = Refs()
"""The command as submitted: per-node values as the shell variables Azure ML sets."""


def build_command(spec: JobSpec, refs: Refs = SUBMITTED) -> str:
    """The job command. With `Refs()` it is what is submitted; with values, what a node runs."""
    if spec.command is not None:
        return spec.command
    script = " ".join(quote(a) for a in [spec.script, *spec.args, *framework_args(spec)])
    launcher = launcher_of(spec)
    if launcher is None or launcher.head is None:
        return "python " + script
    line = " ".join(launcher.head(spec, refs)) + " " + script
    return mpi_node_prefix(refs) + line if uses_mpi(spec) else line
