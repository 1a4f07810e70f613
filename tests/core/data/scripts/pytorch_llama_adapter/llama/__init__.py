# Source: https://github.com/OpenGVLab/LLaMA-Adapter/blob/521a09da84f70f6913d54b7421afa24010319e47/alpaca_finetuning_v1/llama/__init__.py (copied unchanged below this line)
# Copyright (c) Meta Platforms, Inc. and affiliates.
# This software may be used and distributed according to the terms of the GNU General Public License version 3.

from .generation import LLaMA
from .model import ModelArgs, Transformer
from .tokenizer import Tokenizer
