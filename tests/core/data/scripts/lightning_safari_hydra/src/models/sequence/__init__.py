# Source: https://github.com/HazyResearch/safari/blob/02220c69d247e5473616cd053a443ad99fd2559b/src/models/sequence/__init__.py (copied unchanged below this line)
from .base import SequenceModule, TransposedModule
from .model import SequenceModel
from .ff import FF
