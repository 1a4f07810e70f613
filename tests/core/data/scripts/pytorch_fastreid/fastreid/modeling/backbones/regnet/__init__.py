# Source: https://github.com/JDAI-CV/fast-reid/blob/c9bc3ceb2f7a6438b62fb515ea3df6d1e999e95d/fastreid/modeling/backbones/regnet/__init__.py (copied unchanged below this line)


from .regnet import build_regnet_backbone
from .effnet import build_effnet_backbone
