"""The hostile probes of tests/hostile/test_hostile.py as a before/after table.

    .venv/bin/python tests/benchmarks/bench_hostile.py [OLD_TREE]

Runs every probe against this tree and, given one, an older checkout (e.g. `git archive
<commit> | tar -x -C /tmp/old`), each under the same 1 GB cap and 10 s ceiling, and prints
exit code, stderr lines, traceback or not, seconds and peak memory.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.hostile.probes import ROOT
from tests.hostile.test_hostile import PROBES, _run


def describe(out) -> str:
    if out.timed_out:
        return f"killed at 10 s, {out.peak_mb:.0f} MB"
    tb = " traceback" if "Traceback" in out.stderr else ""
    mem = " MemoryError" if "MemoryError" in out.stderr else ""
    lines = f"{len(out.err_lines)} line{'s' if len(out.err_lines) != 1 else ''}"
    return f"exit {out.rc}, {lines}{tb}{mem}, {out.seconds:.1f} s, {out.peak_mb:.0f} MB"


def main() -> None:
    trees = [("after", ROOT)] + ([("before", Path(sys.argv[1]))] if len(sys.argv) > 1 else [])
    with tempfile.TemporaryDirectory() as tmp:
        rows = {}
        for label, root in trees:
            for i, (name, probe) in enumerate(PROBES.items()):
                out = _run(name, probe, Path(tmp, f"{label}{i}"), root)
                rows.setdefault(name, {})[label] = describe(out)
    print("| probe | before | after |\n|---|---|---|")
    for name, cols in rows.items():
        print(f"| {name} | {cols.get('before', '')} | {cols['after']} |")


if __name__ == "__main__":
    main()
