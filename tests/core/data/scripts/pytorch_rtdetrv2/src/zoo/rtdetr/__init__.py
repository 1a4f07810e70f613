# Source: https://github.com/lyuwenyu/RT-DETR/blob/068dfde65f2667ad6555883c69d73de886518cad/rtdetrv2_pytorch/src/zoo/rtdetr/__init__.py (copied unchanged below this line)
"""Copyright(c) 2023 lyuwenyu. All Rights Reserved.
"""


from .rtdetr import RTDETR
from .matcher import HungarianMatcher
from .hybrid_encoder import HybridEncoder
from .rtdetr_decoder import RTDETRTransformer
from .rtdetr_criterion import RTDETRCriterion
from .rtdetr_postprocessor import RTDETRPostProcessor

# v2
from .rtdetrv2_decoder import RTDETRTransformerv2
from .rtdetrv2_criterion import RTDETRCriterionv2