# Source: https://github.com/kakaobrain/fast-autoaugment/blob/2424224291616a2158a2265069ee95a78a2d13d9/FastAutoAugment/networks/efficientnet_pytorch/__init__.py (copied unchanged below this line)
__version__ = "0.5.1"
from .model import EfficientNet, RoutingFn
from .utils import (
    GlobalParams,
    BlockArgs,
    BlockDecoder,
    efficientnet,
    get_model_params,
)