# Source: https://github.com/clovaai/donut/blob/4cfcf972560e1a0f26eb3e294c8fc88a0d336626/donut/_version.py (copied unchanged below this line)
"""
Donut
Copyright (c) 2022-present NAVER Corp.
MIT License
"""
__version__ = "1.0.9"
