# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/text/clm/backend.py (copied unchanged below this line)
from dataclasses import dataclass

from perceiver.model.core import CausalSequenceModel, CausalSequenceModelConfig


@dataclass
class CausalLanguageModelConfig(CausalSequenceModelConfig):
    pass


class CausalLanguageModel(CausalSequenceModel):
    def __init__(self, config: CausalLanguageModelConfig):
        super().__init__(config)
