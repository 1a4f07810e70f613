"""The NCCL_DEBUG=INFO corpus in `data/nccl/` and `tui.logs.network`'s score on it (issue 29).

`truth.yaml` labels each excerpt by reading it; `split.yaml` split the corpus once into a dev half
(read while writing the rules) and a test half (only its score is looked at).
`python -m tests.logs.network_corpus` prints both halves' scores and the dev half's misses only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from tui.logs.network import Network, fallback_warning, read_logs

DATA = Path(__file__).parent / "data" / "nccl"
IB_LIKE = ("ib", "ib_gdr", "roce")


def truth() -> dict[str, dict]:
    return yaml.safe_load((DATA / "truth.yaml").read_text(encoding="utf-8"))


def split(half: str) -> list[str]:
    return yaml.safe_load((DATA / "split.yaml").read_text(encoding="utf-8"))[half]


def read(name: str) -> Network:
    return read_logs([DATA / f"{name}.log"])


@dataclass
class Score:
    logs: int = 0
    transport_right: int = 0
    fallback_logs: int = 0
    fallback_warned: int = 0
    ib_logs: int = 0
    ib_warned: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def transport(self) -> float:
        return self.transport_right / self.logs if self.logs else 0.0


def score(half: str) -> Score:
    """Inter-node transport right, and the fallback warning (as if every plan's VM size had
    InfiniBand) on every fallback log and on no IB log."""
    labels, out = truth(), Score()
    for name in split(half):
        want, got = labels[name], read(name)
        out.logs += 1
        if got.inter_node == want["inter_node"]:
            out.transport_right += 1
        else:
            out.misses.append(f"{name}: {got.inter_node} (truth {want['inter_node']})")
        warned = fallback_warning(got, "Standard_ND96asr_v4", has_ib=True) is not None
        if want["fallback_on_ib"]:
            out.fallback_logs += 1
            out.fallback_warned += warned
        if want["inter_node"] in IB_LIKE:
            out.ib_logs += 1
            out.ib_warned += warned
    return out


def main() -> None:
    for half in ("dev", "test"):
        s = score(half)
        print(
            f"{half}: inter-node transport {s.transport_right}/{s.logs} ({s.transport:.0%}); "
            f"fallback warned {s.fallback_warned}/{s.fallback_logs}; "
            f"IB logs warned {s.ib_warned}/{s.ib_logs}"
        )
        if half == "dev":
            for miss in s.misses:
                print("  miss:", miss)


if __name__ == "__main__":
    main()
