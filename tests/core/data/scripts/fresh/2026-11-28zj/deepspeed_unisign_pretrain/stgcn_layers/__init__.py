# Source: https://github.com/doanhlee04/ThesisProject/blob/24687f37c6533a2c05271d0d36e6aaf7136d8e34/stgcn_layers/__init__.py
from .gcn_utils import Graph
from .stgcn_block import get_stgcn_chain