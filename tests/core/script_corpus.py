"""The script check scored on real scripts (tests/core/data/scripts): precision and recall of
its findings against the truth table (truth.yaml, written by reading each script), for each half
of the split (split.yaml). Matching is RULES.md's: same file, same rule, line within +-3 (a
truth item with no line matches any line); advisory rules are not scored.

`python -m tests.core.script_corpus` prints both halves' scores and lists what went wrong on
the dev half only: rules are written from the dev half, and the test half is only ever looked
at through its score. `--tree DIR` scores the checker of another source tree (the one before a
change, as `git archive <commit> tui presets | tar -x -C DIR` makes it).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SCRIPTS = Path(__file__).parent / "data" / "scripts"
ADVISORY = {"unguarded_log", "no_init_timeout", "horovod_lr_not_scaled"}
ROUND_THREE = {
    "download_race",
    "checkpoint_node_local",
    "run_dir_per_process",
    "default_runs_nothing",
    "default_path_none",
    "default_device_cpu",
    "seed_per_process",
    "zero_batches_per_rank",
    "collective_on_one_rank",
}
"""Ids issue 38 added: scored only on cases read again for them (truth.yaml's `vocabulary: 3`);
elsewhere set aside and counted, since their labels were written before the ids existed."""
ADDED = {**dict.fromkeys(ROUND_THREE, 3), "foreign_platform_path": 4}
"""Each id the vocabulary gained after its first tables, and the vocabulary that has it: a
case labelled with an older one (its `vocabulary`) has its findings of the id set aside
(`foreign_platform_path` came with the sixth fresh round, 2026-11-27f: vocabulary 4)."""
SLACK = 3


@dataclass
class Case:
    """One script of the corpus under one plan, and the problems it really has."""

    file: str
    plan: dict[str, Any]
    problems: list[dict[str, Any]]
    vocabulary: int = 2
    gpus: bool = True
    """False: a CPU plan (truth.yaml's `gpus: false`), checked as ranks with no GPU."""

    @property
    def folder(self) -> Path:
        """The plan's code folder: the subfolder of a folder case, else the corpus folder."""
        return SCRIPTS / self.file.split("/")[0] if "/" in self.file else SCRIPTS

    @property
    def script(self) -> str:
        return self.file.split("/", 1)[1] if "/" in self.file else self.file

    def where(self, file: str) -> str:
        """A finding's file as the truth table names it (relative to the corpus folder)."""
        name = file or self.script
        prefix = self.file.split("/")[0] + "/" if "/" in self.file else ""
        return prefix + Path(name).as_posix().removeprefix(prefix)


@dataclass
class Score:
    """Matches, false alarms and misses over some cases."""

    hits: int = 0
    false_alarms: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    slowest: float = 0.0
    unlabelled: int = 0
    """Findings of ROUND_THREE ids on cases labelled before those ids existed."""

    @property
    def precision(self) -> float:
        found = self.hits + len(self.false_alarms)
        return self.hits / found if found else 1.0

    @property
    def recall(self) -> float:
        wanted = self.hits + len(self.misses)
        return self.hits / wanted if wanted else 1.0

    def line(self, name: str) -> str:
        found = self.hits + len(self.false_alarms)
        wanted = self.hits + len(self.misses)
        return (
            f"{name}: precision {self.hits}/{found} ({self.precision:.0%}), "
            f"recall {self.hits}/{wanted} ({self.recall:.0%}), "
            f"slowest script {self.slowest:.2f} s CPU"
            + (f", {self.unlabelled} findings of ids not labelled there" if self.unlabelled else "")
        )


def cases() -> list[Case]:
    truth = yaml.safe_load((SCRIPTS / "truth.yaml").read_text(encoding="utf-8"))
    return [
        Case(
            c["file"],
            _plan(c.get("plan") or {}),
            c.get("problems") or [],
            c.get("vocabulary", 2),
            c.get("gpus", True),
        )
        for c in truth["cases"]
    ]


def _plan(plan: dict[str, Any]) -> dict[str, Any]:
    """A case's plan with its arguments as the text a command line holds (a table may write
    `--lr 0.0001` unquoted, which YAML reads as a number)."""
    if "args" in plan:
        plan = {**plan, "args": [str(a) for a in plan["args"]]}
    return plan


def halves() -> dict[str, set[str]]:
    """dev and test: the cases' files in each half."""
    split = yaml.safe_load((SCRIPTS / "split.yaml").read_text(encoding="utf-8"))
    return {half: {_entry(e) for e in split[half]} for half in ("dev", "test")}


def _entry(entry: Any) -> str:
    return entry["file"] if isinstance(entry, dict) else str(entry)


def findings(case: Case, tree: Any) -> list[tuple[str, int | None, str, str]]:
    """(file, line, rule, message) of each scored finding of `case` by `tree`'s checker."""
    check, spec_type = tree
    spec = spec_type(**{**case.plan, "script": case.script})
    try:
        report = check(case, spec)
    except ValueError as err:  # ScriptProblem
        return [(case.file, None, "unreadable", str(err))]
    out = []
    for f in report.findings:
        rule = getattr(f, "rule", "")
        if rule in ADVISORY:
            continue
        out.append((case.where(getattr(f, "file", "")), f.line, rule, f.what))
    return out


def score(case: Case, tree: Any, into: Score) -> None:
    start = time.process_time()  # CPU seconds: other work on the machine does not count
    got = findings(case, tree)
    into.slowest = max(into.slowest, time.process_time() - start)
    newer = [f for f in got if ADDED.get(f[2], 0) > case.vocabulary]
    into.unlabelled += len(newer)
    got = [f for f in got if f not in newer]
    free = list(got)
    items = sorted(case.problems, key=lambda p: p.get("line") is None)
    for item in items:
        file = item.get("file", case.file)
        line = item.get("line")
        match = next(
            (
                f
                for f in free
                if f[0] == file
                and f[2] == item["rule"]
                and (line is None or (f[1] is not None and abs(f[1] - line) <= SLACK))
            ),
            None,
        )
        if match is None:
            into.misses.append(f"{file}:{line} {item['rule']}")
        else:
            free.remove(match)
            into.hits += 1
    into.false_alarms += [f"{f[0]}:{f[1]} {f[2]}: {f[3][:140]}" for f in free]


def checker(root: Path | None = None) -> Any:
    """The check of a case (a function) and JobSpec, from this tree or the one at `root`."""
    if root is not None:
        sys.path.insert(0, str(root))
        for name in [m for m in sys.modules if m == "tui" or m.startswith("tui.")]:
            del sys.modules[name]
    script_check = importlib.import_module("tui.planning.script_check")
    spec_type = importlib.import_module("tui.core.spec").JobSpec

    def check(case: Case, spec: Any) -> Any:
        if hasattr(script_check, "check_file"):
            return script_check.check_file(case.folder / case.script, spec, case.gpus, case.folder)
        source = (case.folder / case.script).read_text(encoding="utf-8")
        return script_check.check_source(source, spec, case.script, case.gpus)

    return check, spec_type


def scores(root: Path | None = None) -> dict[str, Score]:
    tree = checker(root)
    split = halves()
    out = {"dev": Score(), "test": Score()}
    for case in cases():
        for half, files in split.items():
            if case.file in files:
                score(case, tree, out[half])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, help="score the checker of this source tree")
    args = parser.parse_args()
    result = scores(args.tree)
    for half in ("dev", "test"):
        print(result[half].line(half))
    dev = result["dev"]
    for miss in dev.misses:
        print(f"  dev miss: {miss}")
    for alarm in dev.false_alarms:
        print(f"  dev false alarm: {alarm}")


if __name__ == "__main__":
    main()
