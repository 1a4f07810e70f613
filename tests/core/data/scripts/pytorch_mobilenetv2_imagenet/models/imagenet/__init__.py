# Source: https://github.com/d-li14/mobilenetv2.pytorch/blob/1733532bd43743442077326e1efc556d7cfd025d/models/imagenet/__init__.py (copied unchanged below this line)
from __future__ import absolute_import
from .mobilenetv2 import *
