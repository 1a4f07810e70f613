"""Read a training script with `ast` (never import or run it) and say what the Azure ML
distributed-training guide expects of it for the chosen framework and launch, and what it lacks.

Each finding has the line it is about (or None when something is missing altogether) and the
fix. Findings are advice: a script can be right in ways a reader of its source cannot see, so
they never block a job. The rules are each framework's (`Framework.script_rules`, asked through
the registry); a library that handles ranks itself (`Framework.script_takeover`) leaves nothing
to check. The facts they read come from `tui.core.script_facts`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tui.core.script_facts import CheckPlan, Finding, ScriptFacts, ScriptProblem, ScriptReport
from tui.core.spec import JobSpec, is_remote
from tui.frameworks import registry

__all__ = ["Finding", "ScriptProblem", "ScriptReport", "check_source", "check_spec"]


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
    src = ScriptFacts(tree)
    report = ScriptReport(script)
    framework = registry.get(spec.framework)
    world = spec.nodes * (1 if framework.one_task_per_node else spec.gpus_per_node)
    if world <= 1:
        report.notes.append("one process: there is nothing distributed to check")
        return report
    for library in registry.frameworks():
        note = library.script_takeover(src)
        if note:
            report.notes.append(note)
            return report
    report.notes += framework.script_notes(src)
    plan = CheckPlan(spec, gpus, world)
    for rule in framework.script_rules:
        report.findings += rule(src, plan)
    if not report.findings:
        report.notes.append("it has what the guide asks of a distributed script")
    return report


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
