# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/optimizers/__init__.py (copied unchanged below this line)
from tensorflow_tts.optimizers.adamweightdecay import AdamWeightDecay, WarmUp
from tensorflow_tts.optimizers.gradient_accumulate import GradientAccumulator
