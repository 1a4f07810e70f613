"""Log lines that belong to one stack, as data: which cause each names, how much it weighs.

The doctor's own rules (`doctor_rules`) know Python, the operating system, NCCL, MPI and the
collective library every PyTorch-based stack shares; what only one framework prints is that
framework's `log_signatures` (`tui/frameworks/`), gathered here with those of stacks dtrain-tui
does not plan (Ray).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui.frameworks import registry
from tui.logs.causes import ECHO, FAILURE, ROOT


@dataclass(frozen=True)
class Signature:
    """A line one stack prints: the cause it names and the tier it weighs (`causes`)."""

    cause: str
    tier: int
    pattern: re.Pattern[str]
    hint: str
    """A word every matching line holds (the doctor skips lines without any rule's words)."""


_TIERS = {"root": ROOT, "echo": ECHO, "failure": FAILURE}


def _sig(cause: str, tier: int, pattern: str, hint: str) -> Signature:
    return Signature(cause, tier, re.compile(pattern), hint)


_OTHER_STACKS: tuple[Signature, ...] = (
    # Ray (not a framework dtrain-tui plans, but its users' logs reach the doctor): a worker
    # process died and Ray does not know why.
    _sig("unknown_failure", FAILURE, r"A worker died or was killed while", "worker died"),
    _sig("unknown_failure", FAILURE, r"The actor (?:is dead|died unexpectedly)", "actor"),
)

SIGNATURES: tuple[Signature, ...] = (
    *(
        Signature(s.cause, _TIERS[s.tier], s.pattern, s.hint)
        for framework in registry.frameworks()
        for s in framework.log_signatures
    ),
    *_OTHER_STACKS,
)
"""Checked after the doctor's own rules, before a traceback's last line is read as user code."""
