# Source: https://github.com/PeterL1n/RobustVideoMatting/blob/53d74c6826735f01f4406b5ca9075eee27bec094/model/__init__.py (copied unchanged below this line)
from .model import MattingNetwork