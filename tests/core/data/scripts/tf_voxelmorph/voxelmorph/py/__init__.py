# Source: https://github.com/voxelmorph/voxelmorph/blob/ca28315d0ba24cd8946ac4f6ed081e049e5264fe/voxelmorph/py/__init__.py (copied unchanged below this line)
from . import utils
