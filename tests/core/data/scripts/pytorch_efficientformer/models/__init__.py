# Source: https://github.com/snap-research/EfficientFormer/blob/d01da426243a38303d0a35d01fc928b0e37d38d3/models/__init__.py (copied unchanged below this line)
from .efficientformer import efficientformer_l1, efficientformer_l3, efficientformer_l7
from .efficientformer_v2 import efficientformerv2_s0, efficientformerv2_s1, efficientformerv2_s2, efficientformerv2_l
