# Source: https://github.com/yassouali/pytorch-segmentation/blob/33434fa987bbf348c961473c15f044b85e32ca7f/base/__init__.py (copied unchanged below this line)
from .base_dataloader import *
from .base_dataset import *
from .base_model import *
from .base_trainer import *


