# Source: https://github.com/mit-han-lab/once-for-all/blob/f03b2673db313b9167e2a1c2b7a5cad540cc1313/ofa/utils/my_dataloader/__init__.py (copied unchanged below this line)
from .my_distributed_sampler import *
from .my_random_resize_crop import *
