# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/data/__init__.py (copied unchanged below this line)
"""Data handling used by SALT during training, validation, and inference."""

from salt.data.datamodules import SaltDataModule
from salt.data.datasets import SaltDataset

__all__ = [
    "SaltDataModule",
    "SaltDataset",
]
