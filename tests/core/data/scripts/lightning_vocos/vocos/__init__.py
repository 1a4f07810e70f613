# Source: https://github.com/gemelo-ai/vocos/blob/c859e3b7b534f3776a357983029d34170ddd6fc3/vocos/__init__.py (copied unchanged below this line)
from vocos.pretrained import Vocos


__version__ = "0.1.0"
