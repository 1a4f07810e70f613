# Source: https://github.com/z-a-f/clustered-unlearning/blob/f1016e32e62667ce0e98962dee42aaa8948a2e0c/awesomeness/_data/__init__.py
__all__ = [
    'cifar',
]

from . import cifar