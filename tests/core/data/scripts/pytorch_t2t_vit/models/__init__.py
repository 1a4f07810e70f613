# Source: https://github.com/yitu-opensource/T2T-ViT/blob/0f63dc9558f4d192de926504dbddfa1b3f5db6ca/models/__init__.py (copied unchanged below this line)
# Copyright (c) [2012]-[2021] Shanghai Yitu Technology Co., Ltd.
#
# This source code is licensed under the Clear BSD License
# LICENSE file in the root directory of this file
# All rights reserved.
from .t2t_vit import *
from .t2t_vit_se import *
from .t2t_vit_dense import *
from .t2t_vit_ghost import *
