# Source: https://github.com/JDAI-CV/fast-reid/blob/c9bc3ceb2f7a6438b62fb515ea3df6d1e999e95d/fastreid/data/transforms/__init__.py (copied unchanged below this line)
# encoding: utf-8
"""
@author:  sherlock
@contact: sherlockliao01@gmail.com
"""

from .autoaugment import AutoAugment
from .build import build_transforms
from .transforms import *

__all__ = [k for k in globals().keys() if not k.startswith("_")]
