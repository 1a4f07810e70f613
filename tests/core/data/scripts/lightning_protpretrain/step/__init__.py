# Source: https://github.com/kalininalab/ProtPreTrain/blob/69960b4f4383f79455700aac0bc0bc80d837f014/step/__init__.py (copied unchanged below this line)
from beartype.claw import beartype_this_package

from . import data, utils
from .version import version as __version__

beartype_this_package()

__all__ = ["protpretrain", "__version__"]
