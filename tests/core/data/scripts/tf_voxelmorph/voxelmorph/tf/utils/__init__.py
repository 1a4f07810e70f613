# Source: https://github.com/voxelmorph/voxelmorph/blob/ca28315d0ba24cd8946ac4f6ed081e049e5264fe/voxelmorph/tf/utils/__init__.py (copied unchanged below this line)
from .utils import *
from .augment import *
