# Source: https://github.com/DingXiaoH/RepVGG/blob/eae7c5204001eaf195bbe2ee72fb6a37855cce33/data/__init__.py (copied unchanged below this line)
from .build import build_loader