"""The labelled corpus in `cases/`: real failure output from public issue threads, and the
doctor's score on it (per label: cause right, culprit rank right where the thread names it).

`python -m tests.doctor.corpus` prints the table and every miss.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

from tui.logs.doctor import Diagnosis, diagnose, load_path

CASES = Path(__file__).parent / "cases"


@dataclass(frozen=True)
class Case:
    name: str
    cause: str
    rank: int | None
    source: str

    @property
    def path(self) -> Path:
        folder = CASES / self.name
        return folder if folder.is_dir() else CASES / f"{self.name}.log"


def cases() -> list[Case]:
    labels = yaml.safe_load((CASES / "labels.yaml").read_text(encoding="utf-8"))
    return [Case(name, v["cause"], v["rank"], v["source"]) for name, v in labels.items()]


def run(case: Case) -> Diagnosis:
    logs, _ = load_path(case.path)
    return diagnose(logs)


@dataclass
class Score:
    cases: int = 0
    cause_right: int = 0
    ranked: int = 0
    rank_right: int = 0


def evaluate() -> tuple[dict[str, Score], list[str]]:
    """Per label: how many cases, causes right, ranks known, ranks right; and the misses."""
    table: dict[str, Score] = defaultdict(Score)
    misses: list[str] = []
    for case in cases():
        got = run(case)
        score = table[case.cause]
        score.cases += 1
        if got.cause == case.cause:
            score.cause_right += 1
        else:
            misses.append(f"{case.name}: cause {got.cause}, labelled {case.cause}")
        if case.rank is not None:
            score.ranked += 1
            if got.rank == case.rank:
                score.rank_right += 1
            else:
                misses.append(f"{case.name}: rank {got.rank}, labelled {case.rank}")
    return dict(table), misses


def render(table: dict[str, Score]) -> str:
    lines = [f"{'label':<22}{'cases':>6}{'cause ok':>10}{'ranks known':>13}{'rank ok':>9}"]
    total = Score()
    for label in sorted(table):
        s = table[label]
        lines.append(f"{label:<22}{s.cases:>6}{s.cause_right:>10}{s.ranked:>13}{s.rank_right:>9}")
        total.cases += s.cases
        total.cause_right += s.cause_right
        total.ranked += s.ranked
        total.rank_right += s.rank_right
    lines.append(
        f"{'all':<22}{total.cases:>6}{total.cause_right:>10}{total.ranked:>13}{total.rank_right:>9}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    table, misses = evaluate()
    print(render(table))
    print("\n".join(misses))
