# Source: https://github.com/xinntao/Real-ESRGAN/blob/a4abfb2979a7bbff3f69f58f58ae324608821e27/realesrgan/__init__.py (copied unchanged below this line)
# flake8: noqa
from .archs import *
from .data import *
from .models import *
from .utils import *
from .version import *
