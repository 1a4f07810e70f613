# Source: https://github.com/JDAI-CV/fast-reid/blob/c9bc3ceb2f7a6438b62fb515ea3df6d1e999e95d/fastreid/config/__init__.py (copied unchanged below this line)
# encoding: utf-8
"""
@author:  l1aoxingyu
@contact: sherlockliao01@gmail.com
"""

from .config import CfgNode, get_cfg, global_cfg, set_global_cfg, configurable

__all__ = [
    'CfgNode',
    'get_cfg',
    'global_cfg',
    'set_global_cfg',
    'configurable'
]
