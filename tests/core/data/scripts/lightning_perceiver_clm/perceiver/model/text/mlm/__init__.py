# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/text/mlm/__init__.py (copied unchanged below this line)
from perceiver.model.text.mlm.backend import (
    MaskedLanguageModel,
    MaskedLanguageModelConfig,
    TextDecoder,
    TextDecoderConfig,
    TextEncoder,
    TextEncoderConfig,
)
from perceiver.model.text.mlm.huggingface import (
    convert_checkpoint,
    convert_config,
    convert_model,
    PerceiverMaskedLanguageModel,
    PerceiverMaskedLanguageModelConfig,
)
from perceiver.model.text.mlm.lightning import LitMaskedLanguageModel
