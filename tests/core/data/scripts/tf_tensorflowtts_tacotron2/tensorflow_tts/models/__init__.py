# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/models/__init__.py (copied unchanged below this line)
from tensorflow_tts.models.base_model import BaseModel
from tensorflow_tts.models.fastspeech import TFFastSpeech
from tensorflow_tts.models.fastspeech2 import TFFastSpeech2
from tensorflow_tts.models.melgan import (
    TFMelGANDiscriminator,
    TFMelGANGenerator,
    TFMelGANMultiScaleDiscriminator,
)
from tensorflow_tts.models.mb_melgan import TFPQMF
from tensorflow_tts.models.mb_melgan import TFMBMelGANGenerator
from tensorflow_tts.models.hifigan import (
    TFHifiGANGenerator,
    TFHifiGANMultiPeriodDiscriminator,
    TFHifiGANPeriodDiscriminator
)
from tensorflow_tts.models.tacotron2 import TFTacotron2
from tensorflow_tts.models.parallel_wavegan import TFParallelWaveGANGenerator
from tensorflow_tts.models.parallel_wavegan import TFParallelWaveGANDiscriminator
