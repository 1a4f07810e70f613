# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/processor/__init__.py (copied unchanged below this line)
from tensorflow_tts.processor.base_processor import BaseProcessor

from tensorflow_tts.processor.ljspeech import LJSpeechProcessor
from tensorflow_tts.processor.baker import BakerProcessor
from tensorflow_tts.processor.kss import KSSProcessor
from tensorflow_tts.processor.libritts import LibriTTSProcessor
from tensorflow_tts.processor.thorsten import ThorstenProcessor
from tensorflow_tts.processor.ljspeechu import LJSpeechUltimateProcessor
from tensorflow_tts.processor.synpaflex import SynpaflexProcessor
from tensorflow_tts.processor.jsut import JSUTProcessor
