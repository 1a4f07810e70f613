# Source: https://github.com/dbiir/UER-py/blob/5743050cc41f0f21986c9f938db5ac1726052629/uer/decoders/__init__.py (copied unchanged below this line)
from uer.decoders.transformer_decoder import TransformerDecoder


str2decoder = {"transformer": TransformerDecoder}

__all__ = ["TransformerDecoder", "str2decoder"]
