# Source: https://github.com/zju3dv/LoFTR/blob/df7ca80f917334b94cfbe32cc2901e09a80e70a8/src/loftr/__init__.py (copied unchanged below this line)
from .loftr import LoFTR
from .utils.cvpr_ds_config import default_cfg
