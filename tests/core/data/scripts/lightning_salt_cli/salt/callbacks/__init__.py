# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/callbacks/__init__.py (copied unchanged below this line)
"""Callbacks used by SALT during training, validation, and inference."""

from __future__ import annotations

from salt.callbacks.checkpoint import Checkpoint
from salt.callbacks.confusion_matrix import ConfusionMatrixCallback
from salt.callbacks.gradient_logger import GradientLoggerCallback
from salt.callbacks.integrated_gradients_writer import IntegratedGradientWriter
from salt.callbacks.maskformer_confusion_matrix import MaskformerConfusionMatrix
from salt.callbacks.maskformer_metrics import MaskformerMetrics
from salt.callbacks.performancewriter import PerformanceWriter
from salt.callbacks.predictionwriter import PredictionWriter
from salt.callbacks.saveconfig import SaveConfigCallback
from salt.callbacks.weight_logger import WeightLoggerCallback

__all__ = [
    "Checkpoint",
    "ConfusionMatrixCallback",
    "GradientLoggerCallback",
    "IntegratedGradientWriter",
    "MaskformerConfusionMatrix",
    "MaskformerMetrics",
    "PerformanceWriter",
    "PredictionWriter",
    "SaveConfigCallback",
    "WeightLoggerCallback",
]
