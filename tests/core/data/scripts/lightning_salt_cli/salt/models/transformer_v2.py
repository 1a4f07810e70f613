# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/models/transformer_v2.py (copied unchanged below this line)
from salt.models import transformer

TransformerV2 = transformer.Transformer
DecoderLayer = transformer.DecoderLayer
EncoderLayer = transformer.EncoderLayer
NormResidual = transformer.NormResidual
Attention = transformer.Attention
GLU = transformer.GLU
