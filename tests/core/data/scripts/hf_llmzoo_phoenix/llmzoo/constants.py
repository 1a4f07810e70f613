# Source: https://github.com/FreedomIntelligence/LLMZoo/blob/cf70d9cd7a34808681ebe58e652f697420d7b055/llmzoo/constants.py (copied unchanged below this line)
IGNORE_INDEX = -100
DEFAULT_PAD_TOKEN = "<pad>"
DEFAULT_BOS_TOKEN = "<s>"
DEFAULT_EOS_TOKEN = "</s>"
DEFAULT_UNK_TOKEN = "<unk>"
