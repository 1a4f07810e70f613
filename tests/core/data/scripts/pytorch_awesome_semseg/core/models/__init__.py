# Source: https://github.com/Tramac/awesome-semantic-segmentation-pytorch/blob/d37d2a17221d2681ad454958cf06a1065e9b1f7f/core/models/__init__.py (copied unchanged below this line)
"""Model Zoo"""
from .model_zoo import get_model, get_model_list