"""The labelled corpus in `cases/`: real failure output from public issue threads (and healthy runs
with scary noise), and the doctor's score on it.

`labels.yaml` gives each case its cause, culprit rank (null where the thread names none), source
and a line of why; `split.yaml` splits the corpus once, at random, into a **dev** half (read while
writing rules) and a **test** half (only its score is looked at).

`python -m tests.doctor.corpus` prints both halves' scores and the dev half's misses only.

The doctor has three verdicts (failed, healthy with proof, not proven): a healthy case is right
only when proven healthy; "not proven" is counted apart, for failures (the doctor missed it but
did not call it healthy) and for healthy runs (their log shows no proof).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from tui.logs.diagnosis import UNPROVEN
from tui.logs.doctor import Diagnosis, diagnose, load_path

CASES = Path(__file__).parent / "cases"
HEALTHY = "none"


@dataclass(frozen=True)
class Case:
    name: str
    cause: str
    rank: int | None
    source: str
    why: str = ""
    split: str = "dev"

    @property
    def path(self) -> Path:
        folder = CASES / self.name
        return folder if folder.is_dir() else CASES / f"{self.name}.log"


def _split() -> dict[str, str]:
    data = yaml.safe_load((CASES / "split.yaml").read_text(encoding="utf-8"))
    return {name: half for half in ("dev", "test") for name in data[half]}


def cases(split: str | None = None) -> list[Case]:
    """Every labelled case, or only those of one half (`dev`, `test`)."""
    labels = yaml.safe_load((CASES / "labels.yaml").read_text(encoding="utf-8"))
    halves = _split()
    out = [
        Case(name, v["cause"], v["rank"], v["source"], v.get("why", ""), halves[name])
        for name, v in labels.items()
    ]
    return [c for c in out if split is None or c.split == split]


def run(case: Case) -> Diagnosis:
    logs, _ = load_path(case.path)
    return diagnose(logs)


@dataclass
class Score:
    cases: int = 0
    cause_right: int = 0
    ranked: int = 0
    rank_right: int = 0


@dataclass
class Report:
    """One half's score: per label, and the four figures the issue asks for."""

    table: dict[str, Score] = field(default_factory=lambda: defaultdict(Score))
    misses: list[str] = field(default_factory=list, repr=False)
    """Dev only: the test half's misses are never shown (they would steer the rules)."""
    healthy: int = 0
    healthy_right: int = 0
    failed_called_healthy: int = 0
    healthy_called_failed: int = 0
    failures_not_proven: int = 0
    """Failures the doctor called "no failure found, not proven healthy"."""
    healthy_not_proven: int = 0

    @property
    def total(self) -> Score:
        total = Score()
        for s in self.table.values():
            total.cases += s.cases
            total.cause_right += s.cause_right
            total.ranked += s.ranked
            total.rank_right += s.rank_right
        return total

    def figures(self) -> str:
        t = self.total
        return (
            f"cause {t.cause_right}/{t.cases} ({_pct(t.cause_right, t.cases)}), "
            f"rank {t.rank_right}/{t.ranked} ({_pct(t.rank_right, t.ranked)}), "
            f"healthy right {self.healthy_right}/{self.healthy}, "
            f"failed called healthy {self.failed_called_healthy}, "
            f"not proven {self.failures_not_proven}/{t.cases - self.healthy} failures "
            f"+ {self.healthy_not_proven}/{self.healthy} healthy, "
            f"healthy called failed {self.healthy_called_failed}"
        )


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.0f} %" if d else "-"


def evaluate(split: str | None = None) -> Report:
    """Score the doctor on one half (or all) of the corpus."""
    report = Report()
    for case in cases(split):
        got = run(case)
        score = report.table[case.cause]
        score.cases += 1
        if case.cause == HEALTHY:
            report.healthy += 1
            report.healthy_right += got.healthy
            report.healthy_not_proven += got.verdict == UNPROVEN
            report.healthy_called_failed += got.failed
        elif got.healthy:
            report.failed_called_healthy += 1
        else:
            report.failures_not_proven += got.verdict == UNPROVEN
        if got.cause == case.cause:
            score.cause_right += 1
        else:
            report.misses.append(f"{case.name}: cause {got.cause}, labelled {case.cause}")
        if case.rank is not None:
            score.ranked += 1
            if got.rank == case.rank:
                score.rank_right += 1
            else:
                report.misses.append(f"{case.name}: rank {got.rank}, labelled {case.rank}")
    return report


def render(report: Report) -> str:
    lines = [f"{'label':<22}{'cases':>6}{'cause ok':>10}{'ranks known':>13}{'rank ok':>9}"]
    for label in sorted(report.table):
        s = report.table[label]
        lines.append(f"{label:<22}{s.cases:>6}{s.cause_right:>10}{s.ranked:>13}{s.rank_right:>9}")
    t = report.total
    lines.append(f"{'all':<22}{t.cases:>6}{t.cause_right:>10}{t.ranked:>13}{t.rank_right:>9}")
    lines.append(report.figures())
    return "\n".join(lines)


if __name__ == "__main__":
    dev = evaluate("dev")
    print("dev half\n" + render(dev))
    print("\n".join(dev.misses))
    # The test half: its score only, never its misses (they would steer the rules).
    print("\ntest half: " + evaluate("test").figures())
