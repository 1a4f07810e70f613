# Source: https://github.com/yassouali/pytorch-segmentation/blob/33434fa987bbf348c961473c15f044b85e32ca7f/dataloaders/__init__.py (copied unchanged below this line)
from .coco import COCO
from .voc import VOC
from .ade20k import ADE20K
from .cityscapes import CityScapes
from .deepscene import DeepScene