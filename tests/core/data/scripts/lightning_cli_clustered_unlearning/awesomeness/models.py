# Source: https://github.com/z-a-f/clustered-unlearning/blob/f1016e32e62667ce0e98962dee42aaa8948a2e0c/awesomeness/models.py
__all__ = [
    # Packages
    'resnet',
    # Modules
    'BaseLightningModule',
    'ResNet18LightningModule',
]

from ._models import resnet
from ._models._base import _BaseLightningModule as BaseLightningModule
from ._models.resnet import ResNet18LightningModule