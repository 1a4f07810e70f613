# Source: https://github.com/Sense-X/UniFormer/blob/52a0415e4e0dda880fab8ffbc710e4d8e171149d/image_classification/models/__init__.py (copied unchanged below this line)
from .uniformer import *
from .uniformer_light import *