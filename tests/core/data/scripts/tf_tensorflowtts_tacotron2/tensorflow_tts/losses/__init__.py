# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/losses/__init__.py (copied unchanged below this line)
from tensorflow_tts.losses.spectrogram import TFMelSpectrogram
from tensorflow_tts.losses.stft import TFMultiResolutionSTFT
