# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/inference/__init__.py (copied unchanged below this line)
from tensorflow_tts.inference.auto_model import TFAutoModel
from tensorflow_tts.inference.auto_config import AutoConfig
from tensorflow_tts.inference.auto_processor import AutoProcessor
