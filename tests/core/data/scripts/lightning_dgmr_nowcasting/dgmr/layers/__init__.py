# Source: https://github.com/openclimatefix/skillful_nowcasting/blob/7ded9a5440b3243ca4242aa642af525eff2650a0/dgmr/layers/__init__.py (copied unchanged below this line)
"""Submodules for the layers."""

from .Attention import AttentionLayer
from .ConvGRU import ConvGRU
from .CoordConv import CoordConv
