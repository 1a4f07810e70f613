# Source: https://github.com/laisimiao/classification-cifar10-pytorch/blob/8d0ecc10630855340f5f9fb8637f79355a74fe3b/models/__init__.py (copied unchanged below this line)
from .vgg import *
from .dpn import *
from .lenet import *
from .senet import *
from .pnasnet import *
from .densenet import *
from .googlenet import *
from .shufflenet import *
from .shufflenetv2 import *
from .resnet import *
from .resnext import *
from .preact_resnet import *
from .mobilenet import *
from .mobilenetv2 import *
from .efficientnet import *
