"""The VM SKU table and the curated environments, read once from the data shipped in `presets/`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True, slots=True)
class Sku:
    """One Azure GPU VM size and what matters for distributed training on it."""

    name: str
    family: str
    gpu_model: str
    vendor: str
    gpus: int
    gpu_memory_gb: int | None
    vcpus: int | None
    ram_gb: int | None
    infiniband: str | None
    """InfiniBand generation (EDR, HDR, NDR…), None when the size has none."""
    ib_gbps_per_link: int | None
    ib_gbps_per_vm: int | None
    rdma: bool
    sriov: bool
    retired: str | None
    notes: str
    source: str

    @property
    def nccl_can_use_infiniband(self) -> bool:
        """NCCL on Azure reaches InfiniBand only through SR-IOV (NC24r has RDMA without it)."""
        return bool(self.infiniband or self.rdma) and self.sriov

    @property
    def interconnect(self) -> str:
        """One short phrase for tables: `HDR 200 Gb/s`, `RDMA, no SR-IOV`, `none`."""
        if self.nccl_can_use_infiniband:
            speed = f" {self.ib_gbps_per_link} Gb/s" if self.ib_gbps_per_link else ""
            return f"{self.infiniband or 'InfiniBand'}{speed}"
        if self.rdma:
            return "RDMA, no SR-IOV"
        return "none"


@dataclass(frozen=True, slots=True)
class Environment:
    """A curated Azure ML environment offered for a framework."""

    id: str
    title: str
    note: str


def _read(name: str) -> object:
    # Read when first asked (after the wizard's first frame), with libyaml's loader where the
    # wheel has it: 2 ms for skus.yaml where the pure-Python loader takes 20 ms.
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    text = resources.files("presets").joinpath(name).read_text(encoding="utf-8")
    return yaml.load(text, Loader=loader)  # a safe loader: the C one where present


@cache
def skus() -> tuple[Sku, ...]:
    """Every known SKU, in the order of the shipped table."""
    fields = Sku.__dataclass_fields__
    return tuple(Sku(**{k: v for k, v in row.items() if k in fields}) for row in _read("skus.yaml"))


@cache
def _by_name() -> dict[str, Sku]:
    return {s.name.lower(): s for s in skus()}


def find_sku(name: str | None) -> Sku | None:
    """The SKU called `name` (case-insensitive), or None for a size the table does not know."""
    return _by_name().get(name.lower()) if name else None


@cache
def _environments() -> dict[str, object]:
    data = _read("environments.yaml")
    assert isinstance(data, dict)
    return data


def environments(framework: str) -> tuple[Environment, ...]:
    """Curated environments for `framework`; the first is the default."""
    rows = _environments().get(framework) or ()
    return tuple(Environment(r["id"], r.get("title", r["id"]), r.get("note", "")) for r in rows)


def default_environment(framework: str) -> str:
    """The environment a new job for `framework` uses unless the user picks another."""
    envs = environments(framework) or environments("pytorch")
    return envs[0].id


def custom_environment_hint() -> str:
    """What to type for an environment that is not in the curated list."""
    return str(_environments().get("custom_hint", ""))


def suggested_env(sku: Sku | None) -> dict[str, str]:
    """NCCL settings worth offering for `sku` (offered in the wizard, never forced).

    NCCL_DEBUG=INFO prints `NET/IB` in rank 0's log when InfiniBand is really used, which is the
    first thing to check on a slow multi-node job.
    """
    if sku is None or not sku.nccl_can_use_infiniband:
        return {"NCCL_DEBUG": "INFO"}
    out = {"NCCL_DEBUG": "INFO", "NCCL_IB_PCI_RELAXED_ORDERING": "1"}
    if sku.name == "Standard_ND96asr_v4":
        out["NCCL_TOPO_FILE"] = "/opt/microsoft/ndv4-topo.xml"
    return out
