"""What the script check's rules are given and what the check returns: the plan as the rules see
it (`CheckPlan`, with the script's arguments and flow read under the plan's command) and the
report of one script (`ScriptReport`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.core.spec import JobSpec
    from tui.scripts.args import Outcome, Parser
    from tui.scripts.facts import Finding
    from tui.scripts.flow import Flow


@dataclass
class ScriptReport:
    """The check of one script for one plan: findings (advice) and notes (what is fine)."""

    script: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.findings


@dataclass(frozen=True)
class CheckPlan:
    """What the rules need to know of the plan: its numbers, whether ranks get GPUs, the
    arguments its command passes the script, what rank 0 finds in its environment, and the
    script's command line read and followed under them (`script_args`, `script_flow`)."""

    spec: JobSpec
    gpus: bool
    world: int
    argv: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    started_per_node: int = 1
    """Processes per node something other than the script starts (Azure ML or a launcher)."""
    parser: Parser | None = None
    outcome: Outcome | None = None
    flow: Flow | None = None
    roles: tuple[str, ...] = ()
    """The tasks' roles where processes are tasks rather than ranks (worker, ps)."""
    folder: Path | None = None
    """The code folder on this machine (where the job's own config files are), if known."""

    def off(self, node: ast.AST) -> bool:
        """Whether `node` is never reached under the plan's command and environment."""
        return self.flow is not None and self.flow.off(node) is not None

    @property
    def nodes(self) -> int:
        return self.spec.nodes

    @property
    def gpus_per_node(self) -> int:
        return self.spec.gpus_per_node
