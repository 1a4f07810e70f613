# Source: https://github.com/clovaai/donut/blob/4cfcf972560e1a0f26eb3e294c8fc88a0d336626/donut/__init__.py (copied unchanged below this line)
"""
Donut
Copyright (c) 2022-present NAVER Corp.
MIT License
"""
from .model import DonutConfig, DonutModel
from .util import DonutDataset, JSONParseEvaluator, load_json, save_json

__all__ = [
    "DonutConfig",
    "DonutModel",
    "DonutDataset",
    "JSONParseEvaluator",
    "load_json",
    "save_json",
]
