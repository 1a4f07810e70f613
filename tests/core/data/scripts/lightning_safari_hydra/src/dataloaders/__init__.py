# Source: https://github.com/HazyResearch/safari/blob/02220c69d247e5473616cd053a443ad99fd2559b/src/dataloaders/__init__.py (copied unchanged below this line)
from . import basic, et, lra, language_modeling_hf, synthetics, vision
from .base import SequenceDataset
