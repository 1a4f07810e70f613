# Source: https://github.com/OpenLMLab/LOMO/blob/45d4bac16c642f101ed00db7244cacf28e5dde15/lomo/log/__init__.py (copied unchanged below this line)
__all__ = [
    'logger',
    "print"
]

from .logger import logger
from .print import print

