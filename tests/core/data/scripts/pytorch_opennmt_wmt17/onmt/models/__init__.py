# Source: https://github.com/OpenNMT/OpenNMT-py/blob/97111d97551c24857076a4102eabdb468b35cff4/onmt/models/__init__.py (copied unchanged below this line)
"""Module defining models."""
from onmt.models.model_saver import build_model_saver, ModelSaver
from onmt.models.model import BaseModel, NMTModel, LanguageModel

__all__ = ["build_model_saver", "ModelSaver", "BaseModel", "NMTModel", "LanguageModel"]
