# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/optim/__init__.py (copied unchanged below this line)
"""Custom optimizers used by SALT during training."""

from __future__ import annotations

from salt.optim.hybrid_muon_adamw import HybridMuonAdamW, MuonParamPolicy

__all__ = [
    "HybridMuonAdamW",
    "MuonParamPolicy",
]
