# Source: https://github.com/crowsonkb/k-diffusion/blob/4601bf085320592473f681a62808ed873d17fad5/k_diffusion/models/__init__.py (copied unchanged below this line)
from . import flops
from .flags import checkpointing, get_checkpointing
from .image_v1 import ImageDenoiserModelV1
from .image_transformer_v1 import ImageTransformerDenoiserModelV1
from .image_transformer_v2 import ImageTransformerDenoiserModelV2
