"""What network NCCL really used, read from the ranks' `NCCL_DEBUG=INFO` lines (issue 29).

The commonest silent loss on a multi-node job is NCCL falling back from InfiniBand to TCP
sockets: the job runs, several times slower, and nothing says so. NCCL says it, at `INFO`:

- `Channel 00/0 : 3[3] -> 11[3] [send] via NET/IB/0/GDRDMA` — how each ring hop travels: `NET/IB`
  (InfiniBand or RoCE, `GDRDMA` when GPUDirect RDMA is on), `NET/AWS Libfabric` (EFA through
  aws-ofi-nccl), `NET/Socket` (TCP), `P2P/...` (NVLink or PCIe peer to peer), `SHM` (host memory);
- `NET/IB : Using [0]mlx5_0:1/IB ...` or `.../RoCE`, `NET/IB : No device found.`,
  `NET/Socket : Using [0]eth0:10.0.0.4<0>`, `Using network Socket`: what was set up;
- `NCCL_IB_DISABLE set by environment to 1.`, `NCCL version 2.19.3+cuda12.3`, `nRanks 16 nNodes 2`;
- NCCL 2.3-2.4 said it otherwise: `NET/IB: [0] mlx5_0:1/IB`, `Using internal Network IB`,
  `NET : Using interface eth0:10.0.0.4<0>`, `Ring 00 : 1 -> 4 [send] via NET/IB/1/GDRDMA`, and
  `rank 3 nranks 4` on each rank's host (every rank on one host: one node).

Whatever a launcher or orchestrator puts before NCCL's record (`[1,0]<stdout>:`, `0: `,
`[rank1]:`, a time) is peeled by the doctor's own mechanism (`severity.peel`) where the record
does not start with NCCL's `host:pid:tid [gpu]`.

Memory stays bounded: a log is searched for `NCCL` with `bytes.find` (C speed) up to
`SCAN_LIMIT`, each hit's line is folded into counters and dropped, at most `MAX_LINES` per log.
No UI, no cloud: `Network` is a value; `fallback_warning` says what a socket fallback on an
InfiniBand VM size costs and how to fix it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tui.logs.severity import peel

SCAN_LIMIT = 256 << 20
"""How far into one log NCCL's lines are looked for (they come at each communicator's start)."""
MAX_LINES = 20_000
"""NCCL lines read per log: a communicator prints a few hundred; more is a loop printing them."""

INTER_NODE = ("ib", "ib_gdr", "roce", "efa", "socket", "none")
TITLES = {
    "ib": "InfiniBand (without GPUDirect RDMA)",
    "ib_gdr": "InfiniBand with GPUDirect RDMA",
    "roce": "RoCE (RDMA over Ethernet)",
    "efa": "AWS EFA (libfabric)",
    "socket": "TCP sockets",
    "none": "none (one node)",
}
INTRA_TITLES = {"p2p": "NVLink/PCIe P2P", "shm": "shared memory", "net": "the network"}

_RECORD = re.compile(r"([^\s:\[\]]+):\d+:\d+ \[\d+\] NCCL (?:INFO|WARN) ")
"""`host:pid:tid [gpu] NCCL INFO `: one NCCL record (a pasted log may hold several per line)."""
_VERSION = re.compile(r"NCCL version (\d+\.\d+\.\d+)")
_NRANKS = re.compile(r"\bn[Rr]anks (\d+)")
_NNODES = re.compile(r"\bnNodes (\d+)")
_HEADER_RANK = re.compile(r"#\s+Rank\s+(\d+) .*?\bon\s+(\S+) device")
_VIA = re.compile(r"\bvia (NET/.+?|P2P.*?|SHM.*?|direct shared memory)\s*$")
_IB_DEVICE = re.compile(r"\b([\w.]+):\d+/(IB|RoCE)\b")
_IFACE = re.compile(r"\[\d+\]([\w.-]+):([^\s<]+)<")
_NETWORK = re.compile(r"Using (?:internal )?[Nn]etwork (\S.*?)\s*$")
_IFACE_OLD = re.compile(r"NET : Using interface ([\w.-]+):([^\s<]+)<")
"""NCCL 2.3-2.4's socket interface line (later `NET/Socket : Using [0]eth0:…<0>`)."""
_RANK_OF = re.compile(r"\brank (\d+) nranks (\d+)")
_EFA = re.compile(r"[Pp]rovider is efa\b")


@dataclass(frozen=True)
class Network:
    """What NCCL's INFO lines say about the network a job used (None: not said)."""

    seen: bool = False
    """Whether any NCCL line was read at all (NCCL_DEBUG=INFO unset: nothing to say)."""
    nccl_version: str | None = None
    nranks: int | None = None
    nodes: int | None = None
    inter_node: str | None = None
    """One of `INTER_NODE`; None when the logs do not say."""
    intra_node: tuple[str, ...] = ()
    """The paths seen inside a node: `p2p`, `shm`, `net`."""
    ib_disabled_by_env: bool = False
    ib_devices: tuple[str, ...] = ()
    socket_interfaces: tuple[str, ...] = ()
    libibverbs_missing: bool = False
    socket_ifname_from_env: bool = False
    evidence: tuple[str, ...] = ()
    """A few NCCL lines that decided `inter_node`, as printed."""

    def to_json(self) -> dict[str, object]:
        return {
            "nccl_version": self.nccl_version,
            "nranks": self.nranks,
            "nodes": self.nodes,
            "inter_node": self.inter_node,
            "intra_node": list(self.intra_node),
            "ib_disabled_by_env": self.ib_disabled_by_env,
            "ib_devices": list(self.ib_devices),
            "socket_interfaces": list(self.socket_interfaces),
            "nccl_info_seen": self.seen,
            "evidence": list(self.evidence),
        }

    def summary(self) -> str:
        """One line: `NCCL 2.19.3 · 16 ranks on 2 nodes · between nodes: InfiniBand with
        GPUDirect RDMA (mlx5_0, mlx5_1) · inside a node: NVLink/PCIe P2P`."""
        if not self.seen:
            return "no NCCL INFO lines (set NCCL_DEBUG=INFO to see the network NCCL uses)"
        parts = [f"NCCL {self.nccl_version}" if self.nccl_version else "NCCL"]
        nodes = f"{self.nodes} node{'s' * (self.nodes != 1)}" if self.nodes else ""
        if self.nranks:
            parts.append(f"{self.nranks} ranks" + (f" on {nodes}" if nodes else ""))
        elif nodes:
            parts.append(nodes)
        inter = TITLES.get(self.inter_node or "", "not said yet")
        detail = self.ib_devices if self.inter_node in ("ib", "ib_gdr", "roce") else ()
        if self.inter_node == "socket":
            detail = self.socket_interfaces
        if detail:
            inter += f" ({', '.join(detail[:3])}{', …' if len(detail) > 3 else ''})"
        parts.append(f"between nodes: {inter}")
        if self.intra_node:
            parts.append("inside a node: " + ", ".join(INTRA_TITLES[p] for p in self.intra_node))
        if self.ib_disabled_by_env:
            parts.append("NCCL_IB_DISABLE=1")
        return " · ".join(parts)


@dataclass
class NetworkReader:
    """Folds NCCL lines, one at a time, into counters; `network_seen()` gives the judgment."""

    lines: int = 0
    version: str | None = None
    nranks: int | None = None
    nnodes: int | None = None
    hosts: set[str] = field(default_factory=set)
    header_hosts: dict[int, str] = field(default_factory=dict)
    rank_hosts: dict[int, str] = field(default_factory=dict)
    """Rank → the host its `rank R nranks N` record came from."""
    net_hops: Counter[str] = field(default_factory=Counter)
    gdr_hops: int = 0
    intra: set[str] = field(default_factory=set)
    ib_devices: dict[str, str] = field(default_factory=dict)
    ifaces: dict[str, str] = field(default_factory=dict)
    network: str | None = None
    ofi_efa: bool = False
    ofi_failed: bool = False
    gdr_enabled: bool = False
    ib_disabled: bool = False
    no_verbs: bool = False
    ifname_env: bool = False
    evidence: dict[str, str] = field(default_factory=dict)

    def feed(self, line: str) -> None:
        """Read one line of a log (a line with several NCCL records is split into them)."""
        if "NCCL" not in line and "Rank" not in line:
            return
        if (m := _HEADER_RANK.search(line)) and "NCCL" not in line:
            self.header_hosts[int(m.group(1))] = m.group(2)
            return
        starts = list(_RECORD.finditer(line))
        if not starts:  # no `host:pid:tid [gpu]`: whatever tags the line is peeled off
            self._record(peel(line)[1], None)
            return
        if len(starts) == 1:
            self._record(line, starts[0].group(1))
            return
        for here, after in zip(starts, [*starts[1:], None], strict=True):
            self._record(line[here.start() : after.start() if after else None], here.group(1))

    def _record(self, text: str, host: str | None) -> None:
        self.lines += 1
        text = text.rstrip()
        if host:
            self.hosts.add(host)
        if self.version is None and (m := _VERSION.search(text)):
            self.version = m.group(1)
        if m := _NRANKS.search(text):
            self.nranks = max(self.nranks or 0, int(m.group(1)))
        if m := _NNODES.search(text):
            self.nnodes = int(m.group(1))
        if host and (m := _RANK_OF.search(text)):
            self.rank_hosts[int(m.group(1))] = host
        if m := _VIA.search(text):
            self._hop(m.group(1), text)
        elif "NET/IB" in text and _IB_DEVICE.search(text):  # `NET/IB : Using [0]…`, `NET/IB: [0] …`
            for name, kind in _IB_DEVICE.findall(text):
                self.ib_devices[name] = kind
            self.evidence.setdefault("ib", text)
        elif "NET/Socket : Using" in text or "NET : Using interface" in text:
            for name, addr in _IFACE.findall(text) + _IFACE_OLD.findall(text):
                self.ifaces[name] = addr
            self.evidence.setdefault("socket", text)
        elif m := _NETWORK.search(text):
            self.network = m.group(1)
            self.evidence.setdefault("network", text)
        elif "NET/OFI" in text:
            if _EFA.search(text):
                self.ofi_efa = True
                self.evidence.setdefault("efa", text)
            if "initialization failed" in text or "Initializing plugin failed" in text:
                self.ofi_failed = True
        if "NCCL_IB_DISABLE set by environment to 1" in text:
            self.ib_disabled = True
        if "NCCL_SOCKET_IFNAME set by environment" in text:
            self.ifname_env = True
        if "Failed to open libibverbs" in text:
            self.no_verbs = True
        if "GPU Direct RDMA Enabled" in text:
            self.gdr_enabled = True

    def _hop(self, via: str, text: str) -> None:
        if via.startswith("NET/"):
            name = via.split("/")[1]
            kind = "socket" if name == "Socket" else "ib" if name.startswith("IB") else "efa"
            self.net_hops[kind] += 1
            if "GDRDMA" in via:
                self.gdr_hops += 1
            self.evidence.setdefault(f"hop_{kind}", text)
        elif via.startswith("P2P"):
            self.intra.add("p2p")
        else:
            self.intra.add("shm")

    # -----------------------------------------------------------------------------------------

    def network_seen(self, plan_nodes: int | None = None) -> Network:
        """The judgment on everything fed so far; `plan_nodes`, the plan's node count when it is
        known, settles whether there is any inter-node traffic when NCCL did not print it."""
        if not self.lines and not self.header_hosts:
            return Network()
        nodes = self._nodes()
        if self.nnodes is None and not self.header_hosts and plan_nodes:
            single = plan_nodes == 1
            nodes = plan_nodes if nodes is None or nodes < plan_nodes else nodes
        else:
            single = self._single_node(nodes)
        intra = set(self.intra)
        if single:
            inter = "none"
            if self.net_hops:
                intra.add("net")
        else:
            inter = self._inter()
        roce = bool(self.ib_devices) and list(self.ib_devices.values()).count("RoCE") * 2 > len(
            self.ib_devices
        )
        if inter in ("ib", "ib_gdr") and roce:
            inter = "roce"
        keys = {"socket": "hop_socket", "efa": "hop_efa"}.get(inter or "", "hop_ib")
        evidence = [
            self.evidence[k] for k in (keys, "ib", "socket", "efa", "network") if k in self.evidence
        ]
        return Network(
            seen=self.lines > 0,
            nccl_version=self.version,
            nranks=self.nranks or (max(self.header_hosts) + 1 if self.header_hosts else None),
            nodes=nodes,
            inter_node=inter,
            intra_node=tuple(p for p in ("p2p", "shm", "net") if p in intra),
            ib_disabled_by_env=self.ib_disabled,
            ib_devices=tuple(self.ib_devices),
            socket_interfaces=tuple(f"{n} {a}" for n, a in self.ifaces.items()),
            libibverbs_missing=self.no_verbs,
            socket_ifname_from_env=self.ifname_env,
            evidence=tuple(dict.fromkeys(evidence))[:3],
        )

    def _nodes(self) -> int | None:
        if self.nnodes:
            return self.nnodes
        return len(self.hosts | set(self.header_hosts.values())) or None

    def _single_node(self, nodes: int | None) -> bool:
        """One node: NCCL said so, nccl-tests' header puts every rank on one host, or the rings
        are all set up inside a host, or the only socket is the loopback (it leaves no node)."""
        if self.nnodes is not None:
            return self.nnodes == 1
        if self.header_hosts:
            return nodes == 1
        if nodes is not None and nodes > 1:
            return False
        if self.intra and not self.net_hops:
            return True
        if self._every_rank_on_one_host() and not self.net_hops:
            return True
        # A loopback NCCL fell back to leaves no node; one the user named on purpose
        # (NCCL_SOCKET_IFNAME=lo, routed setups) says nothing about the node count.
        loopback = self.ifaces and all(a.startswith("127.") for a in self.ifaces.values())
        return bool(loopback) and not self.net_hops and not self.ifname_env

    def _every_rank_on_one_host(self) -> bool:
        """Each of the `nranks` ranks said `rank R nranks N` from one and the same host."""
        ranks = self.nranks or 0
        return (
            ranks > 0
            and set(self.rank_hosts) == set(range(ranks))
            and (len(set(self.rank_hosts.values())) == 1)
        )

    def _inter(self) -> str | None:
        if self.net_hops:
            kind = self.net_hops.most_common(1)[0][0]
            if kind == "ib" and self.gdr_hops * 2 >= self.net_hops["ib"]:
                return "ib_gdr"
            return kind
        network = (self.network or "").lower()
        if network.startswith("socket"):
            return "socket"
        if "libfabric" in network or (self.ofi_efa and not self.ofi_failed):
            return "efa"
        if network.startswith("ib") or self.ib_devices:
            return "ib_gdr" if self.gdr_enabled else "ib"
        if self.ifaces:
            return "socket"
        return None


def read_lines(lines: Iterable[str], plan_nodes: int | None = None) -> Network:
    """The network, from lines already in memory (a log's excerpt, a test's sample)."""
    reader = NetworkReader()
    for line in lines:
        reader.feed(line)
    return reader.network_seen(plan_nodes)


def read_logs(paths: Iterable[Path], plan_nodes: int | None = None) -> Network:
    """The network, from every rank's log file (each searched up to `SCAN_LIMIT` for NCCL)."""
    reader = NetworkReader()
    for path in paths:
        feed_file(reader, Path(path))
    return reader.network_seen(plan_nodes)


def feed_file(reader: NetworkReader, path: Path) -> None:
    """Feed `reader` the NCCL lines of one file, found with `bytes.find` over the file read in
    place a chunk at a time (`FileView`: a whole mapped log did not fit a 2 GB address space)."""
    from tui.logs.evidence import FileView

    try:
        with path.open("rb") as f:
            size = f.seek(0, 2)
            if size == 0:
                return
            feed_bytes(reader, FileView(f.fileno(), size), min(size, SCAN_LIMIT))
    except (OSError, ValueError):
        return


def feed_bytes(reader: NetworkReader, data, limit: int | None = None) -> None:
    """Feed `reader` each line of `data` (bytes or a mapped file, up to `limit`) that holds
    NCCL's name, or an nccl-tests `#  Rank N … on HOST` header line."""
    limit = len(data) if limit is None else limit
    for token in (b"NCCL", b"Rank "):
        at, seen = data.find(token, 0, limit), 0
        while at >= 0 and seen < MAX_LINES:
            start = data.rfind(b"\n", max(0, at - 4096), at) + 1
            end = data.find(b"\n", at, min(limit, at + 16384))
            end = end if end >= 0 else min(limit, at + 16384)
            line = bytes(data[start:end]).decode("utf-8", "replace")
            if token == b"NCCL" or ("NCCL" not in line and "#" in line):
                reader.feed(line)
                seen += 1
            at = data.find(token, end + 1, limit)


@dataclass(frozen=True)
class FallbackWarning:
    """NCCL used sockets on a VM size with InfiniBand: what it costs, why, and the fixes."""

    title: str
    causes: tuple[str, ...]
    fixes: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"title": self.title, "causes": list(self.causes), "fixes": list(self.fixes)}

    def text(self) -> str:
        causes = "\n".join(f"  - {c}" for c in self.causes)
        fixes = "\n".join(f"  - {f}" for f in self.fixes)
        return f"{self.title}\nLikely causes:\n{causes}\nFixes:\n{fixes}"


def fallback_warning(network: Network, vm_size: str | None, has_ib: bool) -> FallbackWarning | None:
    """The loud warning when the plan's VM size has InfiniBand but NCCL used TCP sockets between
    nodes; what the logs point at comes first."""
    if not has_ib or network.inter_node != "socket":
        return None
    size = vm_size or "this VM size"
    causes: list[str] = []
    fixes: list[str] = []
    if network.ib_disabled_by_env:
        causes.append("NCCL_IB_DISABLE=1 is set (the job's environment variables or the image)")
        fixes.append("remove NCCL_IB_DISABLE from the job's environment (or set it to 0)")
    verbs = " (NCCL could not open libibverbs)" if network.libibverbs_missing else ""
    causes.append(f"the image has no IB/RDMA user space: libibverbs, Mellanox OFED{verbs}")
    fixes.append(
        "use an Azure ML curated GPU image (acpt-pytorch-*, with OFED and NCCL) "
        "or one built on nvcr.io/nvidia/pytorch"
    )
    if network.socket_ifname_from_env:
        causes.append(
            "NCCL_SOCKET_IFNAME is set: it is right for bootstrap (eth0) but often comes "
            "with NCCL_IB_DISABLE or names an interface that is not InfiniBand"
        )
        fixes.append("keep NCCL_SOCKET_IFNAME=eth0 for bootstrap only, never with IB disabled")
    causes.append(
        f"the cluster is not {size}, or its nodes are not in one scale set (InfiniBand links "
        "only the VMs of one AmlCompute cluster; 'r' sizes need SR-IOV)"
    )
    fixes.append(f"create the cluster with {size} and run every node in it")
    causes.append("no shm_size: a 64 MB /dev/shm breaks NCCL's shared-memory setup")
    fixes.append("set shm_size (e.g. 16g) on the Resources step")
    return FallbackWarning(
        title=f"NCCL used TCP sockets between nodes although {size} has InfiniBand: "
        "the job runs several times slower than it should",
        causes=tuple(causes),
        fixes=tuple(fixes),
    )
