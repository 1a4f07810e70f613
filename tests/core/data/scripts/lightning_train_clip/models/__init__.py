# Source: https://github.com/Zasder3/train-CLIP/blob/79d4c7960072047a9e0d39335ab60dcb150640c3/models/__init__.py (copied unchanged below this line)
from .wrapper import CLIPWrapper, CustomCLIPWrapper