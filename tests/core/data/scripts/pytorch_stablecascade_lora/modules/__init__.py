# Source: https://github.com/Stability-AI/StableCascade/blob/7a7d341f729ccaa042920a1fac3e7b9326079aca/modules/__init__.py (copied unchanged below this line)
from .effnet import EfficientNetEncoder
from .stage_c import StageC
from .stage_c import ResBlock, AttnBlock, TimestepBlock, FeedForwardBlock
from .previewer import Previewer
from .controlnet import ControlNet, ControlNetDeliverer
from . import controlnet as controlnet_filters