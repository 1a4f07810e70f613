"""`Framework`: what one training framework knows, behind one interface; and the launchers.

Each module of this package defines one `Framework` for one framework (its launch modes and why
not, its launcher and command, what it sets in each process, its explanations, its pre-flight
packages, its example, its glossary). Planning code, the explanations, the pre-flight, the job
import and the screens ask `tui.frameworks.registry` and never branch on a framework's name.

The defaults here are those of a script that joins a process group from the variables Azure ML
(or a launcher) sets: what most frameworks do. A framework overrides what differs.

This package imports core's types only (`plan_types`, `catalog`, `files`), never `spec` or
`plan` at run time: those ask the registry, so importing them back would be a circle.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tui.core.plan_types import EnvBuilder, Origin

if TYPE_CHECKING:
    from tui.core.catalog import Sku
    from tui.core.plan_types import ConfigFile, LaunchPlan, Target
    from tui.core.spec import JobSpec
    from tui.scripts.args import Parser
    from tui.scripts.facts import ScriptFacts


def quote(text: str) -> str:
    return shlex.quote(text)


@dataclass(frozen=True)
class Refs:
    """How the command refers to per-node values: shell variables, or values filled in."""

    node_rank: str = "$NODE_RANK"
    master_addr: str = "$MASTER_ADDR"
    master_port: str = "$MASTER_PORT"
    mpi_rank: str = "$OMPI_COMM_WORLD_RANK"
    mpi_master: str = "$AZ_BATCH_MASTER_NODE"


@dataclass(frozen=True)
class Package:
    """A module a training script imports, the pip package that has it and the dtrain-tui extra
    that installs it (the pre-flight's fix)."""

    module: str
    pip: str
    extra: str


@dataclass(frozen=True)
class Launcher:
    """A per-node launcher: one process per node that starts (or is expected to start) the rest.

    `head` gives the words before the script in the command; `worker_env` sets what it gives
    each worker it starts; `detect` finds it in a command the user wrote.
    """

    name: str
    spawns: bool
    """It starts the node's workers itself (and sets their ranks)."""
    modules: tuple[str, ...] = ()
    """What the ranks' Python must import for it to start (the pre-flight checks them)."""
    tool: str | None = None
    """An executable that must exist beside the job's Python or on PATH."""
    install: str = ""
    """How to get `tool` where it is missing."""
    head: Callable[[JobSpec, Refs], list[str]] | None = None
    worker_env: Callable[..., None] | None = None
    detect: re.Pattern[str] | None = None
    local_command: Callable[[str, list[str]], str] | None = None
    """How the command must change to run on this machine (notes say what changed)."""
    split_env: Callable[[Path, str], dict[str, str]] | None = None
    """On this machine: the variables that make it write every worker line behind a marker
    (`split_env(log_dir, marker_template)`, the template's `${rank}` the global rank), so the
    local backend can split its output into one log per rank."""
    root_cause: str | None = None
    """A regex for its failure summary, with the failed rank and exit code as groups 1 and 2."""


# ---- Open MPI: the launcher Azure ML's mpi distribution uses --------------------------------


def open_mpi_env(
    rank: int, local_rank: int, n: int, pcpi: int, one_host: bool
) -> dict[str, object]:
    """What Open MPI sets for one rank. On one host (the local target, mapped by slot) every
    rank is local, so the local rank is the world rank."""
    return {
        "OMPI_COMM_WORLD_RANK": rank,
        "OMPI_COMM_WORLD_SIZE": n * pcpi,
        "OMPI_COMM_WORLD_LOCAL_RANK": rank if one_host else local_rank,
        "OMPI_COMM_WORLD_LOCAL_SIZE": n * pcpi if one_host else pcpi,
        # Despite the name, this is the rank among *all jobs'* processes on the node.
        "OMPI_COMM_WORLD_NODE_RANK": rank if one_host else local_rank,
    }


def mpi_node_prefix(refs: Refs) -> str:
    """Under the mpi distribution Azure ML sets no NODE_RANK/MASTER_*: a per-node launcher's
    command derives them from Open MPI's world rank (one rank per node) and
    AZ_BATCH_MASTER_NODE ("addr:port"). OMPI_COMM_WORLD_NODE_RANK is *not* the node rank."""
    if refs.mpi_rank.startswith("$"):
        return (
            "export NODE_RANK=$OMPI_COMM_WORLD_RANK"
            " MASTER_ADDR=${AZ_BATCH_MASTER_NODE%:*}"
            " MASTER_PORT=${AZ_BATCH_MASTER_NODE##*:} && "
        )
    addr, _, port = refs.mpi_master.rpartition(":")
    return f"export NODE_RANK={refs.mpi_rank} MASTER_ADDR={addr} MASTER_PORT={port} && "


# ---- the interface --------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """A spec field only this framework has, as the wizard asks for it."""

    field: str
    label: str
    choices: tuple[tuple[str, Any], ...] = ()
    """(label, value) to choose from; none: typed, a whole number."""
    default: Any = None
    """What an unset (None) value means, shown as chosen."""
    when: Callable[[JobSpec], bool] | None = None
    """Asked only when this holds (always when None)."""

    def shown(self, spec: JobSpec) -> bool:
        return self.when is None or self.when(spec)


@dataclass(frozen=True)
class Form:
    """The framework's own options on the Code step, titled, with what they make shown below
    (the plan's config file explanations)."""

    title: str
    options: tuple[Option, ...]
    own_file: str = ""
    """Said instead of the explanations when the job brings its own file."""


@dataclass(frozen=True)
class LogSignature:
    """A log line only this framework prints, for the doctor: the cause it names, how much it
    weighs (`tier`: "root" a cause, "echo" another process's failure repeated, "failure" a
    failure with no cause of its own) and a word every matching line holds (the doctor reads
    past lines with none of its words)."""

    cause: str
    tier: str
    pattern: re.Pattern[str]
    hint: str


def signature(cause: str, tier: str, pattern: str, hint: str) -> LogSignature:
    return LogSignature(cause, tier, re.compile(pattern), hint)


@dataclass(frozen=True)
class Glossary:
    """A term the help screen explains."""

    term: str
    text: str


class Framework:
    """One framework's knowledge. Subclass it in the framework's module; override what differs.

    Steps that have a Why panel: "framework", "launch", "resources", "code".
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    tagline: ClassVar[str] = ""
    """A few words beside its name on the Framework step."""
    default_launch: ClassVar[str] = "per_process"
    not_supported: ClassVar[dict[str, str]] = {}
    """Launch modes that do not fit → why not (the Launch step shows it beside the choice)."""
    options: ClassVar[dict[str, Any]] = {}
    """JobSpec fields only this framework uses → their value when unused (cleared on a switch)."""
    option_rule: ClassVar[str] = ""
    """Why one of `options` set on another framework's job is refused, and the fix."""
    distributions: ClassVar[dict[str, str]] = {"pytorch": "PyTorchDistribution"}
    """Azure ML distribution types its jobs use → azure-ai-ml's class for each."""
    platform_vars: ClassVar[tuple[str, ...]] = ()
    """Variables Azure ML sets for this framework's processes (a user's value is overwritten)."""
    launchers: ClassVar[tuple[Launcher, ...]] = ()
    """Launchers this framework brings (found in users' commands by `detect`)."""
    origins: ClassVar[tuple[Origin, ...]] = ()
    packages: ClassVar[tuple[Package, ...]] = ()
    """Modules scripts of this framework import: pip package and extra (the pre-flight)."""
    assumed_modules: ClassVar[tuple[str, ...]] = ()
    """What its script is taken to import when the script cannot be read."""
    example: ClassVar[str] = ""
    """Its shipped preset."""
    sample_script: ClassVar[str] = ""
    """Its example in presets/scripts, which a rehearsal on this machine runs."""
    init_call: ClassVar[str] = "`init_process_group()`"
    """What a script calls to join the job (said where a job has no distribution yet)."""
    one_task_per_node: ClassVar[bool] = False
    """One process per node that drives all its GPUs, in the framework's own way: no launcher,
    and GPUs a node does not list are not idle."""
    guess_order: ClassVar[int] = 100
    """Lower is asked first when guessing an imported job's framework."""
    config_title: ClassVar[str | None] = None
    """What its config file is called, where the framework's command reads one."""
    config_name: ClassVar[str] = ""
    """Its file name."""
    config_tab: ClassVar[str] = ""
    """The review tab's title for it."""
    launch_options: ClassVar[tuple[Option, ...]] = ()
    """Choices of this framework's own on the Launch step (radio buttons)."""
    code_form: ClassVar[Form | None] = None
    """Options of this framework's own on the Code step (its config file's numbers)."""
    field_labels: ClassVar[dict[str, str]] = {}
    """How the wizard names this framework's spec fields in an error."""
    shown_json_var: ClassVar[str | None] = None
    """An env var holding JSON the review shows on a tab of its own (TF_CONFIG, say)."""
    mechanisms: ClassVar[tuple[str, ...]] = ()
    """Words only this framework's explanations use (another's Why text must not)."""
    glossary: ClassVar[tuple[Glossary, ...]] = ()
    script_rules: ClassVar[tuple[Callable[..., Any], ...]] = ()
    """The script check's rules for this framework: `rule(facts, plan) -> Iterable[Finding]`
    (`tui.scripts.facts`)."""
    log_signatures: ClassVar[tuple[LogSignature, ...]] = ()
    """Log lines only this framework prints, that the doctor reads (`tui.logs.signatures`)."""

    # ---- the spec -------------------------------------------------------------------------

    def launch_problem(self, launch: str) -> str | None:
        """Why `launch` does not fit, or None when it does."""
        return self.not_supported.get(launch)

    def problems(self, spec: JobSpec) -> list[tuple[str, str]]:
        """(field, message) for what this framework refuses in `spec` beyond the generic rules."""
        return []

    def submit_problems(self, spec: JobSpec) -> list[str]:
        """What Azure ML would refuse in this framework's job (preview and export only warn)."""
        return []

    def tasks_with_ports(self, spec: JobSpec) -> int:
        """Processes that each need a port of their own on this machine (0: they meet at the
        master's)."""
        return 0

    # ---- the command ----------------------------------------------------------------------

    def uses_mpi(self, spec: JobSpec) -> bool:
        """Whether Azure ML's mpi distribution (mpirun) starts the processes."""
        return False

    def launcher(self, spec: JobSpec) -> Launcher | None:
        """The per-node launcher dtrain-tui wraps the script in (per-node launch only)."""
        return None

    def discovers_ranks(self, spec: JobSpec) -> bool:
        """Whether the framework finds its ranks itself from the launcher's variables (and the
        plan lists what it sets from them)."""
        return False

    def args(self, spec: JobSpec) -> list[str]:
        """Arguments dtrain-tui adds to the script's own (only when it builds the command)."""
        return []

    # ---- what each process sees -----------------------------------------------------------

    def process_env(
        self,
        env: EnvBuilder,
        spec: JobSpec,
        target: Target,
        vcpus: int | None,
        launcher: Launcher | None,
    ) -> None:
        """What the framework sets inside each training process (on import or at setup)."""

    def node_env(self, target: Target, n: int, addr: str) -> dict[str, object]:
        """Platform variables a framework that discovers its ranks reads on each node."""
        return {}

    def config_file(self, spec: JobSpec, sku: Sku | None, world: int) -> ConfigFile | None:
        """A config file the command reads, built from the plan's numbers; None when none."""
        return None

    def user_config(self, spec: JobSpec) -> Path | None:
        """The user's own config file the command reads, on this machine, if any."""
        return None

    def user_config_text(self, spec: JobSpec) -> str | None:
        """The user's own config file as the job will read it; None when there is none.
        Raises ValueError (one line) when it cannot be read."""
        return None

    def user_config_problems(self, spec: JobSpec, world: int) -> list[str]:
        """What the job's own config file gets wrong for this plan (one line each)."""
        return []

    def plan(
        self, spec: JobSpec, target: Target, sku: Sku | None, command: str, warnings: list[str]
    ) -> LaunchPlan | None:
        """The whole plan, for a framework whose processes are not ranks of a process group
        (`command` is the job's; `warnings` the generic ones, to add to); None: the generic
        planner (`tui.planning.plan`) does it with the hooks above."""
        return None

    # ---- words ----------------------------------------------------------------------------

    def explain(
        self, spec: JobSpec, sku: Sku | None, target: Target, launcher: Launcher | None
    ) -> list[str]:
        """What the review says about this framework's part of the plan."""
        return []

    def notes(self, spec: JobSpec, target: Target, config: ConfigFile | None) -> list[str]:
        """What the review says after the generic explanations: the config file's numbers."""
        return list(config.explanations) if config else []

    def warnings(self, spec: JobSpec) -> list[str]:
        return []

    def one_host_note(self, spec: JobSpec) -> str:
        """What this framework adds to the warning that one host reports local ranks 0..N-1."""
        return ""

    def topology_caption(self, plan: LaunchPlan) -> str | None:
        """The topology's caption after the node count, in the framework's words; None: the
        world size and the master's address."""
        return None

    def shape(self, spec: JobSpec, tasks: int) -> str | None:
        """The one-line summary's shape in the framework's words; None: nodes × GPUs."""
        return None

    def why(self, step: str, spec: JobSpec) -> str:
        """This framework's part of a step's Why panel, in its own words ("" for none)."""
        return ""

    # ---- the script check -----------------------------------------------------------------

    def script_takeover(self, src: ScriptFacts) -> str | None:
        """A note when the script hands its ranks to this framework's library, whatever the
        plan's framework (no rule then applies); None when it does not."""
        return None

    script_parser_adders: ClassVar[tuple[str, ...]] = ()
    """This library's functions that add arguments to a script's own parser, which
    `script_parser_extras` lists (any other library's `add_*(parser)` makes it take anything)."""
    takeover_rules: ClassVar[tuple[Callable[..., Any], ...]] = ()
    """The rules that still apply when this framework's library takes the ranks over."""

    def script_notes(self, src: ScriptFacts) -> list[str]:
        """What the check says of the script before this framework's rules run."""
        return []

    def script_parser(self, src: ScriptFacts) -> Parser | None:
        """The command-line parser this framework's library gives a script that uses it
        (read from the source), or None."""
        return None

    def script_parser_extras(self, src: ScriptFacts, parser: Parser) -> None:
        """Add to `parser` the arguments this framework's library adds to a script's own."""

    # ---- other ways in and out ------------------------------------------------------------

    def recognises(self, distribution: str, command: str) -> bool:
        """Whether an imported job with this distribution type and command is one of ours."""
        return False

    def imports_distribution(self, distribution: str) -> bool:
        """Whether this framework reads the imported job's distribution mapping itself."""
        return False

    def imported_distribution(
        self, dist: dict[str, Any], instances: int, number: Callable[[Any, str], int]
    ) -> dict[str, Any]:
        """Spec fields from the distribution mapping (`number` reads a whole number or raises
        naming the key)."""
        return {}

    def one_process_is_per_node(self, instances: int) -> bool:
        """Whether an imported job with one process per node and no launcher in its command is
        per-node launch (the framework starts the rest)."""
        return False

    def imported(self, distribution: str, command: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Spec fields of this framework read from an imported job's distribution and command
        (`fields`: what the import has found so far)."""
        return {}

    def for_this_machine(self, spec: JobSpec) -> dict[str, Any]:
        """Changes that make `spec` run its shipped example on this machine."""
        return {}
