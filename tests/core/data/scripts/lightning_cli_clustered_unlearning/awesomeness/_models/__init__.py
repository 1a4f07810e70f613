# Source: https://github.com/z-a-f/clustered-unlearning/blob/f1016e32e62667ce0e98962dee42aaa8948a2e0c/awesomeness/_models/__init__.py
__all__ = [
    'resnet'
]

from . import resnet