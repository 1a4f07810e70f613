# Source: https://github.com/Stability-AI/StableCascade/blob/7a7d341f729ccaa042920a1fac3e7b9326079aca/train/__init__.py (copied unchanged below this line)
from .train_b import WurstCore as WurstCoreB
from .train_c import WurstCore as WurstCoreC
from .train_c_controlnet import WurstCore as ControlNetCore
from .train_c_lora import WurstCore as LoraCore