# Source: https://github.com/lyuwenyu/RT-DETR/blob/068dfde65f2667ad6555883c69d73de886518cad/rtdetrv2_pytorch/src/optim/amp.py (copied unchanged below this line)
"""Copyright(c) 2023 lyuwenyu. All Rights Reserved.
"""


import torch.cuda.amp as amp

from ..core import register


__all__ = ['GradScaler']

GradScaler = register()(amp.grad_scaler.GradScaler)
