# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/audio/symbolic/__init__.py (copied unchanged below this line)
from perceiver.model.audio.symbolic.backend import SymbolicAudioModel, SymbolicAudioModelConfig
from perceiver.model.audio.symbolic.huggingface import (
    convert_checkpoint,
    PerceiverSymbolicAudioModel,
    PerceiverSymbolicAudioModelConfig,
)
from perceiver.model.audio.symbolic.lightning import LitSymbolicAudioModel
