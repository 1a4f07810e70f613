# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/configs/__init__.py (copied unchanged below this line)
from tensorflow_tts.configs.base_config import BaseConfig
from tensorflow_tts.configs.fastspeech import FastSpeechConfig
from tensorflow_tts.configs.fastspeech2 import FastSpeech2Config
from tensorflow_tts.configs.melgan import (
    MelGANDiscriminatorConfig,
    MelGANGeneratorConfig,
)
from tensorflow_tts.configs.mb_melgan import (
    MultiBandMelGANDiscriminatorConfig,
    MultiBandMelGANGeneratorConfig,
)
from tensorflow_tts.configs.hifigan import (
    HifiGANGeneratorConfig,
    HifiGANDiscriminatorConfig,
)
from tensorflow_tts.configs.tacotron2 import Tacotron2Config
from tensorflow_tts.configs.parallel_wavegan import ParallelWaveGANGeneratorConfig
from tensorflow_tts.configs.parallel_wavegan import ParallelWaveGANDiscriminatorConfig
