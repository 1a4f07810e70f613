# Source: https://github.com/lyuwenyu/RT-DETR/blob/068dfde65f2667ad6555883c69d73de886518cad/rtdetrv2_pytorch/src/nn/__init__.py (copied unchanged below this line)
"""Copyright(c) 2023 lyuwenyu. All Rights Reserved.
"""


from .arch import *
from .criterion import *
from .postprocessor import *

# 
from .backbone import *


from .backbone import (
    get_activation, 
    FrozenBatchNorm2d,
    freeze_batch_norm2d,
)