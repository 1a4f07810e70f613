# Source: https://github.com/eugene123tw/DreamDojo/blob/7f3379bcb831147c0cc170e79ba08471ad186497/external/lam_project/main.py (copied unchanged below this line)
from lightning.pytorch.cli import LightningCLI

from lam.dataset import LightningVideoDataset
from lam.model import LAM

cli = LightningCLI(
    LAM,
    LightningVideoDataset,
    seed_everything_default=32
)
