# Source: https://github.com/Tramac/awesome-semantic-segmentation-pytorch/blob/d37d2a17221d2681ad454958cf06a1065e9b1f7f/core/models/base_models/__init__.py (copied unchanged below this line)
from .densenet import *
from .resnet import *
from .resnetv1b import *
from .vgg import *
from .eespnet import *
from .xception import *
