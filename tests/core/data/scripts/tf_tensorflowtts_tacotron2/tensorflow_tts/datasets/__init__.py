# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/datasets/__init__.py (copied unchanged below this line)
from tensorflow_tts.datasets.abstract_dataset import AbstractDataset
from tensorflow_tts.datasets.audio_dataset import AudioDataset
from tensorflow_tts.datasets.mel_dataset import MelDataset
