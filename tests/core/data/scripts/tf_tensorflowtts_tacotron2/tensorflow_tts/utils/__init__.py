# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/utils/__init__.py (copied unchanged below this line)
from tensorflow_tts.utils.cleaners import (
    basic_cleaners,
    collapse_whitespace,
    convert_to_ascii,
    english_cleaners,
    expand_abbreviations,
    expand_numbers,
    lowercase,
    transliteration_cleaners,
)
from tensorflow_tts.utils.decoder import dynamic_decode
from tensorflow_tts.utils.griffin_lim import TFGriffinLim, griffin_lim_lb
from tensorflow_tts.utils.group_conv import GroupConv1D
from tensorflow_tts.utils.number_norm import normalize_numbers
from tensorflow_tts.utils.outliers import remove_outlier
from tensorflow_tts.utils.strategy import (
    calculate_2d_loss,
    calculate_3d_loss,
    return_strategy,
)
from tensorflow_tts.utils.utils import find_files, MODEL_FILE_NAME, CONFIG_FILE_NAME, PROCESSOR_FILE_NAME, CACHE_DIRECTORY, LIBRARY_NAME
from tensorflow_tts.utils.weight_norm import WeightNormalization
