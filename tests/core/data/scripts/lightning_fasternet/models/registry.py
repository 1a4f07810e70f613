# Source: https://github.com/JierunChen/FasterNet/blob/e8fba4465ae912359c9f661a72b14e39347e4954/models/registry.py (copied unchanged below this line)
import torch.nn as nn
from timm.models.registry import register_model
from .fasternet import FasterNet


@register_model
def fasternet(**kwargs):
    model = FasterNet(**kwargs)
    return model