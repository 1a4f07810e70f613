# Source: https://github.com/intersun/LightningDOT/blob/a597f3f9da3d8923402f8294d1b58e734412aec0/uniter_model/model/__init__.py (copied unchanged below this line)
from .model import UniterForPretraining, UniterConfig
from .vqa import UniterForVisualQuestionAnswering
from .nlvr2 import (UniterForNlvr2PairedAttn, UniterForNlvr2Paired,
                    UniterForNlvr2Triplet)
from .itm import (UniterForImageTextRetrieval,
                  UniterForImageTextRetrievalFast,
                  UniterForImageTextRetrievalHardNeg)
from .ve import UniterForVisualEntailment
