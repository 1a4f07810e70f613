# Source: https://github.com/Alibaba-MIIL/ImageNet21K/blob/6e4c6a45a79df46f7452d3ca87068c7f177979b2/src_files/models/__init__.py (copied unchanged below this line)
from .utils import create_model

__all__ = ['create_model']
