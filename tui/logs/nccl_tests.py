"""nccl-tests' `all_reduce_perf` output: every size's bus bandwidth, the `Avg bus bandwidth`, and
how they compare with what the VM size should reach (issue 29, the cluster check).

The table, as nccl-tests prints it (since 2.11 with a `root` column, before without it):

    #       size         count      type   redop    root     time   algbw   busbw #wrong     time …
      1073741824     268435456     float     sum      -1    10314  104.11  195.20      0    10339 …
    # Out of bounds values : 0 OK
    # Avg bus bandwidth    : 194.675

Lines may carry a launcher's prefix (`[1,0]<stdout>:`) and NCCL INFO lines may sit inside the
table; both are skipped. The expectation comes from `presets/skus.yaml` (`nccl_allreduce`, Azure's
own node health-check thresholds, each with its source).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

_PREFIX = re.compile(r"^(?:\[\d+,\d+\]<std(?:out|err)>:|\[\d+\]<std(?:out|err)>:|\s*\|[^|]*\|)")
_AVG = re.compile(r"#\s*Avg bus bandwidth\s*:\s*([0-9.eE+-]+)")
_OOB = re.compile(r"#\s*Out of bounds values\s*:\s*(\d+)\s*(OK|FAILED)")
_TYPES = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double",
          "bfloat16", "fp8_e4m3", "fp8_e5m2", "char", "int", "uint"}  # fmt: skip


@dataclass(frozen=True)
class Row:
    """One size: bytes, elements, and the out-of-place and in-place bus bandwidth (GB/s)."""

    size: int
    count: int
    dtype: str
    redop: str
    busbw: float
    """Out-of-place bus bandwidth, GB/s."""
    busbw_in_place: float | None
    algbw: float
    time_us: float


@dataclass(frozen=True)
class AllReduce:
    """One all_reduce_perf run's table."""

    rows: tuple[Row, ...]
    avg_busbw: float | None
    """The `Avg bus bandwidth` line (over every size, small ones included)."""
    out_of_bounds: int | None = None

    @property
    def largest(self) -> Row | None:
        """The largest message's row: the bandwidth a big gradient all-reduce sees."""
        return max(self.rows, key=lambda r: r.size) if self.rows else None

    @property
    def peak_busbw(self) -> float | None:
        return max((r.busbw for r in self.rows), default=None)

    def to_json(self) -> dict[str, object]:
        largest = self.largest
        return {
            "sizes": len(self.rows),
            "rows": [
                {"size": r.size, "busbw": r.busbw, "busbw_in_place": r.busbw_in_place}
                for r in self.rows
            ],
            "avg_busbw_gbs": self.avg_busbw,
            "largest_size": largest.size if largest else None,
            "largest_busbw_gbs": largest.busbw if largest else None,
            "peak_busbw_gbs": self.peak_busbw,
            "out_of_bounds": self.out_of_bounds,
        }


def parse(lines: Iterable[str]) -> AllReduce | None:
    """The all_reduce_perf table in `lines` (the last one when a log holds several runs); None
    when there is none."""
    rows: list[Row] = []
    avg: float | None = None
    oob: int | None = None
    done: AllReduce | None = None
    for raw in lines:
        line = _PREFIX.sub("", raw.rstrip("\n"), count=1)
        if line.lstrip().startswith("#"):
            if m := _AVG.search(line):
                avg = float(m.group(1))
                done = AllReduce(tuple(rows), avg, oob)
                rows, avg, oob = [], None, None
            elif m := _OOB.search(line):
                oob = int(m.group(1))
            continue
        row = _row(line.split())
        if row is not None:
            rows.append(row)
    if rows:  # a run cut before its summary
        return AllReduce(tuple(rows), avg, oob)
    return done


_TIME_COLUMN = {13: 5, 12: 4, 11: 3}
"""Where the out-of-place time is: 13 fields with `root` (nccl-tests 2.11+), 12 without it, 11
in the first releases (no `redop` either)."""


def _row(parts: list[str]) -> Row | None:
    """A data row of any of nccl-tests' table layouts, else None."""
    first = _TIME_COLUMN.get(len(parts))
    if first is None or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    if parts[2] not in _TYPES:
        return None
    try:
        time_us, algbw, busbw = (float(p) for p in parts[first : first + 3])
        in_place = _number(parts[first + 6])
    except (ValueError, IndexError):
        return None
    redop = parts[3] if first > 3 else "sum"
    return Row(int(parts[0]), int(parts[1]), parts[2], redop, busbw, in_place, algbw, time_us)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None  # `N/A`


# ---------------------------------------------------------------------------------------------
# What the VM size should reach


@dataclass(frozen=True)
class Expected:
    """What a healthy VM size reaches, from `presets/skus.yaml` (`nccl_allreduce`)."""

    vm_size: str
    one_vm_busbw: float
    one_vm_message: str
    ib_gbps_per_nic: float | None
    nics: int
    source: str

    def busbw(self, nodes: int) -> float | None:
        """GB/s a ring should reach: one VM's NVLink figure; across nodes the NICs' together."""
        if nodes <= 1:
            return self.one_vm_busbw
        if not self.ib_gbps_per_nic:
            return None
        return min(self.one_vm_busbw, self.ib_gbps_per_nic * self.nics / 8)


@cache
def _rows() -> dict[str, dict]:
    text = resources.files("presets").joinpath("skus.yaml").read_text(encoding="utf-8")
    return {str(r["name"]).lower(): r for r in yaml.safe_load(text) if isinstance(r, dict)}


def expected(vm_size: str | None) -> Expected | None:
    """The VM size's all-reduce expectation, or None when Azure publishes none for it here."""
    row = _rows().get((vm_size or "").lower())
    if not row or not isinstance(row.get("nccl_allreduce"), dict):
        return None
    ref = row["nccl_allreduce"]
    link, per_vm = row.get("ib_gbps_per_link"), row.get("ib_gbps_per_vm")
    nics = int(per_vm // link) if link and per_vm else 0
    return Expected(
        vm_size=str(row["name"]),
        one_vm_busbw=float(ref["one_vm_busbw_gbs"]),
        one_vm_message=str(ref.get("one_vm_message", "")),
        ib_gbps_per_nic=float(ref["ib_gbps_per_nic"]) if ref.get("ib_gbps_per_nic") else None,
        nics=nics,
        source=str(ref.get("source", "")),
    )


@dataclass(frozen=True)
class Verdict:
    """The measured bus bandwidth beside the expected one, in words."""

    measured: float | None
    expected: float | None
    ratio: float | None
    words: str
    source: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "measured_busbw_gbs": self.measured,
            "expected_busbw_gbs": self.expected,
            "ratio": None if self.ratio is None else round(self.ratio, 3),
            "verdict": self.words,
            "source": self.source,
        }


def compare(result: AllReduce, vm_size: str | None, nodes: int) -> Verdict:
    """The largest message's bus bandwidth against what `vm_size` should reach on `nodes`."""
    largest = result.largest
    measured = largest.busbw if largest else None
    ref = expected(vm_size)
    want = ref.busbw(nodes) if ref else None
    if measured is None:
        return Verdict(None, want, None, "no all_reduce_perf table in the log")
    if ref is None or want is None:
        size = vm_size or "this VM size"
        return Verdict(measured, None, None, f"{measured:g} GB/s; no published figure for {size}")
    ratio = measured / want
    where = "one VM's GPUs" if nodes <= 1 else f"{nodes} nodes over InfiniBand"
    head = f"{measured:g} GB/s at {_bytes(largest.size)} vs {want:g} GB/s expected ({where})"
    if ratio >= 0.9:
        words = f"{head}: as expected"
    elif ratio >= 0.6:
        words = f"{head}: {ratio:.0%}, below what {ref.vm_size} reaches"
    else:
        words = (
            f"{head}: only {ratio:.0%}; check the network readout "
            "(sockets instead of InfiniBand? no GPUDirect RDMA?)"
        )
    if nodes <= 1 and largest.size < _size(ref.one_vm_message):
        size = ref.one_vm_message
        words += (
            f" (Azure's check uses {size} messages: run with -e {size} to compare like with like)"
        )
    return Verdict(measured, want, ratio, words, ref.source)


def _bytes(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def _size(text: str) -> int:
    m = re.fullmatch(r"(\d+)([KMG]?)", text.strip().upper())
    if not m:
        return 0
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]
