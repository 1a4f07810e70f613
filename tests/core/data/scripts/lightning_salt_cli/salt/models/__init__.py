# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/models/__init__.py (copied unchanged below this line)
"""Model definitions from the SALT framework."""

from salt.models.dense import Dense
from salt.models.edge_constructor import EdgeConstructor
from salt.models.featurewise import FeaturewiseTransformation
from salt.models.initnet import InitNet
from salt.models.inputnorm import InputNorm
from salt.models.pooling import (
    GlobalAttentionPooling,
    NodeQueryGAP,
    Pooling,
)
from salt.models.posenc import PositionalEncoder
from salt.models.r21xbb import R21Xbb
from salt.models.saltmodel import SaltModel
from salt.models.task import (
    ClassificationTask,
    GaussianRegressionTask,
    RegressionTask,
    RegressionTaskBase,
    TaskBase,
    VertexingTask,
)
from salt.models.transformer import Transformer

# Alias for backward compatibility
from salt.models.transformer_v2 import TransformerV2

__all__ = [
    "ClassificationTask",
    "Dense",
    "EdgeConstructor",
    "FeaturewiseTransformation",
    "GaussianRegressionTask",
    "GlobalAttentionPooling",
    "InitNet",
    "InputNorm",
    "NodeQueryGAP",
    "Pooling",
    "PositionalEncoder",
    "R21Xbb",
    "RegressionTask",
    "RegressionTaskBase",
    "SaltModel",
    "TaskBase",
    "Transformer",
    "TransformerV2",
    "VertexingTask",
]
