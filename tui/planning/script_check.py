"""Read a training script with `ast` (never import or run it) and say what goes wrong when the
plan runs it: for the chosen framework and launch, with the plan's numbers and the arguments
its command passes.

The script is read with its helpers (the modules of its code folder it imports, followed by
`script_read`), its facts gathered (`script_facts`), its command-line parser read and given the
plan's argv (`script_args`), its values followed under that command and the plan's environment
(`script_flow`). Then the rules: the command line's (here), and the framework's own
(`Framework.script_rules`, asked through the registry); where a library handles the ranks
itself (`Framework.script_takeover`: a framework's own trainer), that library's rules run
instead, whatever the plan's framework. Each finding names the file, the line (None when
something is missing altogether), a stable rule id and the fix. Findings are advice:
a script can be right in ways a reader of its source cannot see, so they never block a job.
"""

from __future__ import annotations

import ast
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from tui.core.job_checks import is_remote
from tui.core.spec import JobSpec
from tui.frameworks import registry
from tui.frameworks.launch_env import unset_anywhere
from tui.planning.command import framework_args
from tui.scripts.args import handed_elsewhere, read_parser
from tui.scripts.argv import ABBREVIATION, simulate
from tui.scripts.check_plan import CheckPlan, ScriptReport
from tui.scripts.config_args import config_loop_args
from tui.scripts.draws import draw_rules
from tui.scripts.facts import Finding, Module, ScriptFacts, ScriptProblem
from tui.scripts.files import file_rules
from tui.scripts.flow import Flow
from tui.scripts.imports import import_rules
from tui.scripts.parting import parting_rules
from tui.scripts.rank import rank_valued
from tui.scripts.read import MOST_BYTES, helpers, parse, read_script
from tui.scripts.values import value_rules

SEVERITY_ORDER = {"error": 0, "warning": 1, "advice": 2}
"""How findings are listed: what breaks the job or its training first, then what only makes it
worse, then advice (a missing timeout); the script's own order within each."""

__all__ = ["Finding", "ScriptProblem", "ScriptReport", "check_file", "check_source", "check_spec"]


def check_source(
    source: str,
    spec: JobSpec,
    script: str = "train.py",
    gpus: bool = True,
    folder: Path | None = None,
) -> ScriptReport:
    """Check `source` for `spec`; `gpus` is whether the ranks get GPUs (False: a CPU rehearsal);
    `folder` is the code folder, whose modules the script imports are read too.

    Raises ScriptProblem (one line) when it is not Python that can be read.
    """
    if len(source) > MOST_BYTES:
        raise ScriptProblem(f"{script}: over {MOST_BYTES:,} characters; the check reads up to that")
    tree = parse(source, script)
    try:
        report = _check(tree, spec, script, gpus, folder)
    except RecursionError:
        raise ScriptProblem(f"{script}: nested too deeply to follow") from None
    once: dict[tuple, Finding] = {}  # two rules' paths to one statement: said once
    for f in report.findings:
        once.setdefault((f.rule, f.file, f.line), f)
    report.findings = list(once.values())
    report.findings.sort(key=lambda f: SEVERITY_ORDER.get(f.severity, len(SEVERITY_ORDER)))
    return report


def _check(
    tree: ast.Module, spec: JobSpec, script: str, gpus: bool, folder: Path | None
) -> ScriptReport:
    module = Module(tree, script)
    found = helpers(module, folder) if folder is not None else []
    src = ScriptFacts(tree, script, found, rank_valued([module, *found]))
    report = ScriptReport(script)
    framework = registry.get(spec.framework)
    world = spec.nodes * (1 if framework.one_task_per_node else spec.gpus_per_node)
    if world <= 1:
        report.notes.append("one process: there is nothing distributed to check")
        return report
    plan = _plan(src, spec, gpus, world, folder)
    report.findings += _command_line(src, plan)
    for library in registry.frameworks():
        note = library.script_takeover(src)
        if note:
            report.notes.append(note)
            for rule in library.takeover_rules:
                report.findings += rule(src, plan)
            report.findings += _new(report.findings, _generic(src, plan))
            return report
    report.notes += framework.script_notes(src)
    for rule in framework.script_rules:
        report.findings += rule(src, plan)
    report.findings += _new(report.findings, _generic(src, plan))
    if not report.findings:
        report.notes.append("it has what the guide asks of a distributed script")
    return report


def _generic(src: ScriptFacts, plan: CheckPlan) -> list[Finding]:
    """What every framework's plan is checked for: the script's own modules on the import path,
    files across nodes, defaults into use, what
    each rank draws, where one rank parts from the others, what no part of the plan sets."""
    return [
        *import_rules(src, plan),
        *file_rules(src, plan),
        *unset_anywhere(src, plan),
        *value_rules(src, plan),
        *draw_rules(src, plan),
        *parting_rules(src, plan),
    ]


def _new(said: list[Finding], generic: Iterable[Finding]) -> list[Finding]:
    """The generic rules' findings that a framework's own rule has not said already (the same
    rule about the same statement: its line within 3)."""
    kept: list[Finding] = []
    for f in generic:
        if not any(
            k.rule == f.rule
            and k.file == f.file
            and k.line is not None
            and f.line is not None
            and abs(k.line - f.line) <= 3
            for k in said
        ):
            kept.append(f)
    return kept


def _plan(
    src: ScriptFacts, spec: JobSpec, gpus: bool, world: int, folder: Path | None
) -> CheckPlan:
    """The plan's numbers, argv and rank 0's environment, and the script followed under them."""
    from tui.planning.plan import plan as make_plan

    made = make_plan(spec)
    argv = script_argv(made.nodes[0].command, spec.script)
    env = made.ranks[0].env_dict() if made.ranks else {}
    readers = [f.script_parser for f in registry.frameworks()]
    parser = read_parser(src, readers)
    if parser is not None:
        config_loop_args(src, parser, folder)
        for f in registry.frameworks():
            f.script_parser_extras(src, parser)
        adders = [name for f in registry.frameworks() for name in f.script_parser_adders]
        if parser.style == "argparse" and handed_elsewhere(src, adders):
            parser.open = True
    outcome = simulate(parser, argv) if parser is not None else None
    flow = Flow(src, parser, outcome, env, spec.gpus_per_node).run()
    started = made.nodes[0].workers if made.nodes else 1
    roles = tuple(dict.fromkeys(n.role for n in made.nodes))
    return CheckPlan(
        spec, gpus, world, tuple(argv), env, started, parser, outcome, flow, roles, folder
    )


def script_argv(command: str, script: str) -> list[str]:
    """The arguments a plan's command passes its script (what follows the script's name)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    for i, word in enumerate(words):
        if word == script or word.endswith("/" + script):
            return words[i + 1 :]
    return []


def _command_line(src: ScriptFacts, plan: CheckPlan) -> Iterator[Finding]:
    """The plan's arguments, rejected by the script's parser."""
    if plan.parser is None or plan.outcome is None or not plan.outcome.rejected:
        return
    said = "; ".join(plan.outcome.rejected[:3])
    passed = " ".join(shlex.quote(a) for a in plan.argv) or "no arguments"
    added = " ".join(framework_args(plan.spec)) if plan.spec.command is None else ""
    fix = (
        "make the script accept what the command passes (argparse's parse_known_args() "
        "leaves unknown arguments alone; a required one needs a value in the job's arguments)"
    )
    if any(ABBREVIATION in r for r in plan.outcome.rejected):
        fix = (
            "ArgumentParser(..., allow_abbrev=False), so that an option the parser lacks is not "
            "read as a longer one's abbreviation; then add that option (or parse with "
            "parse_known_args(), which leaves it alone)"
        )
    elif added and any(added.split()[0] in r for r in plan.outcome.rejected):
        fix += f"; {added} is what the {plan.spec.framework} plan adds: choose the framework "
        fix += "the script is written for, or read them"
    yield src.finding(
        plan.parser.node,
        f"the plan's command passes {passed} to {plan.spec.script}, and its "
        f"{plan.parser.style} parser stops the job at start-up: {said}",
        fix,
        "argv_rejected",
    )


def check_file(
    path: Path,
    spec: JobSpec,
    gpus: bool = True,
    folder: Path | None = None,
    name: str | None = None,
) -> ScriptReport:
    """Check the script at `path` (read without trusting it); `folder` is the code folder
    (the script's own folder when None); `name` is what findings call it (spec.script)."""
    source = read_script(path)
    folder = folder or path.parent
    report = check_source(source, spec, name or spec.script, gpus, folder)
    if name is not None:  # a helper named the way the script is: under the same folder
        report.findings = [
            f if f.file == name else replace(f, file=str(folder / f.file)) for f in report.findings
        ]
    return report


def check_spec(spec: JobSpec, base: Path | None = None, gpus: bool = True) -> ScriptReport | None:
    """The check of the spec's script on this machine; None when there is no script to read
    (a full command, remote code, or a file that is not there yet)."""
    if spec.command is not None or (spec.code is not None and is_remote(spec.code)):
        return None
    folder = Path(base or Path.cwd(), spec.code or ".")
    path = folder / spec.script
    if path.suffix != ".py" or not path.is_file():
        return None
    return check_file(path, spec, gpus, folder)
