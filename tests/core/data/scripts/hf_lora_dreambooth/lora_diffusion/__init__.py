# Source: https://github.com/cloneofsimo/lora/blob/d84074b3e3496f1cfa8a3f49b8b9972ef463b483/lora_diffusion/__init__.py (copied unchanged below this line)
from .lora import *
from .dataset import *
from .utils import *
from .preprocess_files import *
from .lora_manager import *
