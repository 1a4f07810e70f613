# Source: https://github.com/intersun/LightningDOT/blob/a597f3f9da3d8923402f8294d1b58e734412aec0/uniter_model/model/ve.py (copied unchanged below this line)
"""
UNITER for VE model
"""
from .vqa import UniterForVisualQuestionAnswering


class UniterForVisualEntailment(UniterForVisualQuestionAnswering):
    """ Finetune multi-modal BERT for VE
    """
    def __init__(self, config, img_dim):
        super().__init__(config, img_dim, 3)
