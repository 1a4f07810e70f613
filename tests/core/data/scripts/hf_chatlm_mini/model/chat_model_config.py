# Source: https://github.com/charent/ChatLM-mini-Chinese/blob/2696eb8d1601188bef57fe39f884463ea8dd7182/model/chat_model_config.py (copied unchanged below this line)
from transformers import T5Config

class TextToTextModelConfig(T5Config):
    model_type = 't5'