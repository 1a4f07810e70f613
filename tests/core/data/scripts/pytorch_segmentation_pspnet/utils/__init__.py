# Source: https://github.com/yassouali/pytorch-segmentation/blob/33434fa987bbf348c961473c15f044b85e32ca7f/utils/__init__.py (copied unchanged below this line)
from .logger import Logger