# Source: https://github.com/nomutin/VQVAE-Lightning/blob/1c65ae269565931ca3c82692168a47d85e6b0e29/scripts/cli.py (copied unchanged below this line)
"""
Train/Test.

References
----------
- https://lightning.ai/docs/pytorch/stable/cli/lightning_cli_advanced.html

"""

from lightning.pytorch.cli import LightningCLI


def main() -> None:
    """Execute lightning CLI."""
    LightningCLI(save_config_callback=None)


if __name__ == "__main__":
    main()
