"""How long the script check takes on each real script of its corpus (tests/core/data/scripts),
in CPU seconds: the five slowest and the total. The check runs on every review, so a script a user
writes should take well under a second.

Run: .venv/bin/python tests/benchmarks/bench_script_check.py   (prints its figures; no pass/fail)
"""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.core.script_corpus import cases, checker, findings  # noqa: E402


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    tree = checker()
    gc.collect()
    gc.freeze()  # what importing made is not the check's to sweep
    took = []
    for case in cases():
        start = time.process_time()
        findings(case, tree)
        took.append((time.process_time() - start, case.file))
    took.sort(reverse=True)
    print(f"{len(took)} scripts, {sum(t for t, _ in took):.2f} s CPU in all")
    for seconds, file in took[:5]:
        print(f"  {seconds:5.2f} s  {file}")


if __name__ == "__main__":
    main()
