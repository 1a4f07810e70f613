# Source: https://github.com/nomutin/VQVAE-Lightning/blob/1c65ae269565931ca3c82692168a47d85e6b0e29/src/vqvae_lightning/__init__.py (copied unchanged below this line)
"""Lightning implementation of VQ-VAE."""

from vqvae_lightning.module import FSQVAE, VQVAE

__all__ = ["FSQVAE", "VQVAE"]
