# Source: https://github.com/z-a-f/clustered-unlearning/blob/f1016e32e62667ce0e98962dee42aaa8948a2e0c/awesomeness/data.py
__all__ = [
    # Packages
    'cifar',
    # Modules
    'BaseLightningDataModule',
    'CIFAR10LightningDataModule',   
]

from ._data import cifar
from ._data._base import _BaseLightningDataModule as BaseLightningDataModule
from ._data.cifar import CIFAR10LightningDataModule
