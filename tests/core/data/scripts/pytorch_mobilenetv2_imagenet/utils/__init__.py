# Source: https://github.com/d-li14/mobilenetv2.pytorch/blob/1733532bd43743442077326e1efc556d7cfd025d/utils/__init__.py (copied unchanged below this line)
"""Useful utils
"""
from .misc import *
from .logger import *
from .visualize import *
from .eval import *

# progress bar
import os, sys
sys.path.append(os.path.join(os.path.dirname(__file__), "progress"))
from progress.bar import Bar as Bar