"""The doctor's answer, one of three verdicts, in words a person reads and as JSON.

- **failed**: the cause, the culprit rank, the line that shows it, the fix;
- **healthy**: only with proof (an exit status 0 the backend recorded, a completion line, or a
  running job's progress advancing to the end of its logs), named in `proof`;
- **not proven**: no failure found, and no proof of health either; `severe` holds the most
  severe lines seen, ranked, for a person to judge.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tui.logs.causes import NOT_PROVEN, TITLES, WORDS
from tui.logs.doctor_findings import Finding
from tui.logs.evidence import Evidence

FAILED, HEALTHY, UNPROVEN = "failed", "healthy", "not_proven"
"""The three verdicts (`Diagnosis.verdict`)."""


@dataclass(frozen=True)
class Diagnosis:
    """The doctor's answer: the cause, the culprit rank, the line that shows it, the fix."""

    cause: str
    rank: int | None
    evidence: Evidence | None
    fix: str
    others: tuple[Finding, ...] = ()
    who: str | None = None
    """The culprit in its framework's words where its log says (`worker 1`, `ps 0` for a
    task); None: `rank N`."""
    confidence: str = "high"
    """`high`: a rank's own words name the cause; `medium`: a launcher's signal, or a
    collective's culprit by inference; `low`: a failure without a known cause."""
    verdict: str = FAILED
    """`failed`, `healthy` (proven) or `not_proven` (no failure found, no proof of health)."""
    proof: str | None = None
    """Healthy: what proves it (`file:line: text`, or the backend's recorded exit status)."""
    severe: tuple[Evidence, ...] = ()
    """Not proven: the most severe lines seen, worst first."""

    @property
    def healthy(self) -> bool:
        """Proven healthy (never merely "nothing found")."""
        return self.verdict == HEALTHY

    @property
    def failed(self) -> bool:
        return self.verdict == FAILED

    @property
    def title(self) -> str:
        """The cause in a few words for a list or a heading (`GPU out of memory`)."""
        return TITLES.get(self.cause, self.cause.replace("_", " "))

    def to_json(self) -> dict[str, object]:
        supporting = [f.evidence for f in self.others[:5]]
        return {
            "verdict": self.verdict,
            "cause": self.cause,
            "title": self.title,
            "rank": self.rank,
            "culprit": self.culprit if self.failed else None,
            "confidence": self.confidence,
            "evidence": [e.at for e in ([self.evidence] if self.evidence else []) + supporting],
            "lines": [e.to_json() for e in ([self.evidence] if self.evidence else [])],
            "fix": self.fix,
            "others": [f.to_json() for f in self.others],
            "proof": self.proof,
            "severe": [e.to_json() for e in self.severe],
        }

    @property
    def culprit(self) -> str:
        """`rank 3`, `worker 1` (a task), or `the job` when no rank is known."""
        if self.who:
            return self.who
        return f"rank {self.rank}" if self.rank is not None else "the job"

    def one_line(self) -> str:
        """The answer in a list's words: `rank 2: GPU out of memory`, `healthy (exit 0)`."""
        if self.healthy:
            return "healthy"
        if self.verdict == UNPROVEN:
            return "no failure found, not proven healthy"
        return f"{self.culprit}: {WORDS.get(self.cause, self.title)}"

    def paragraph(self) -> str:
        """What a person reads: who, what, where, and what to do."""
        if self.healthy:
            return f"Healthy: {self.proof or 'the run ended well'}."
        if self.verdict == UNPROVEN:
            return self._unproven()
        who = self.culprit.capitalize()
        what = WORDS.get(self.cause, self.title)
        text = f"{who} failed first: {what} ({self.cause})."
        if self.confidence == "low":
            text += " No known cause: the evidence shows where it failed."
        if self.evidence is not None:
            text += f"\n{self.evidence.at}: {self.evidence.text.strip()}"
        text += f"\nFix: {self.fix}"
        if self.others:
            echoes = Counter(f.cause for f in self.others)
            # in words, as the title of each cause (a newcomer reads "Collective timed out",
            # not `nccl_timeout`; --json keeps the ids)
            listed = ", ".join(
                f"{n} × {TITLES.get(c, c.replace('_', ' '))}" for c, n in echoes.most_common()
            )
            text += f"\nAlso seen (most are consequences): {listed}."
        return text

    def _unproven(self) -> str:
        text = f"{TITLES[NOT_PROVEN]}: no rank's log shows a failure the doctor knows, and none "
        text += "shows the run ending well (an exit status 0, a completion line)."
        if self.severe:
            text += "\nThe most severe lines seen:"
            text += "".join(f"\n{e.at}: {e.text.strip()}" for e in self.severe)
        else:
            text += "\nNo line in them is worse than a warning."
        return text + f"\n{self.fix}"
