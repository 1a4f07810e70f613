# Source: https://github.com/crowsonkb/k-diffusion/blob/4601bf085320592473f681a62808ed873d17fad5/k_diffusion/__init__.py (copied unchanged below this line)
from . import augmentation, config, evaluation, external, gns, layers, models, sampling, utils
from .layers import Denoiser
