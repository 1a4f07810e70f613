# Source: https://github.com/openclimatefix/skillful_nowcasting/blob/7ded9a5440b3243ca4242aa642af525eff2650a0/dgmr/__init__.py (copied unchanged below this line)
"""Submodules of dgmr."""

from .common import ContextConditioningStack, LatentConditioningStack
from .dgmr import DGMR
from .discriminators import Discriminator, SpatialDiscriminator, TemporalDiscriminator
from .generators import Generator, Sampler
