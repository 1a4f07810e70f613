# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/stypes.py (copied unchanged below this line)
from typing import TypeAlias

from torch import BoolTensor, Tensor

Vars: TypeAlias = dict[str, list[str]]
Tensors: TypeAlias = dict[str, Tensor]
BoolTensors: TypeAlias = dict[str, BoolTensor]
NestedTensors: TypeAlias = dict[str, dict[str, Tensor]]
