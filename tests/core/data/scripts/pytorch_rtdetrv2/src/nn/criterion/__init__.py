# Source: https://github.com/lyuwenyu/RT-DETR/blob/068dfde65f2667ad6555883c69d73de886518cad/rtdetrv2_pytorch/src/nn/criterion/__init__.py (copied unchanged below this line)
"""Copyright(c) 2023 lyuwenyu. All Rights Reserved.
"""


import torch.nn as nn 
from ...core import register

from .det_criterion import DetCriterion

CrossEntropyLoss = register()(nn.CrossEntropyLoss)
