"""What the script check says of a script: a finding (what is wrong, where, how to fix it) and
the one line it says when the script cannot be read at all."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """What the guide asks for that the script lacks (or gets wrong), and how to fix it.

    `rule` is a stable snake_case id (tests/core/data/scripts/RULES.md); `severity` is "error"
    (the job fails or trains wrongly), "warning" (it runs, worse) or "advice"; `file` is where
    `line` is (a helper module of the code folder, or the script)."""

    line: int | None
    what: str
    fix: str
    rule: str = ""
    severity: str = "error"
    file: str = ""

    @property
    def message(self) -> str:
        return self.what

    def text(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.what}; fix: {self.fix}"

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.what,
            "fix": self.fix,
        }


class ScriptProblem(ValueError):
    """The script cannot be read as Python (the message says why, in one line)."""
