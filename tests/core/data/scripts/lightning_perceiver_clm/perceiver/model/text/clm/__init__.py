# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/text/clm/__init__.py (copied unchanged below this line)
from perceiver.model.text.clm.backend import CausalLanguageModel, CausalLanguageModelConfig
from perceiver.model.text.clm.huggingface import (
    convert_checkpoint,
    PerceiverCausalLanguageModel,
    PerceiverCausalLanguageModelConfig,
)
from perceiver.model.text.clm.lightning import LitCausalLanguageModel
