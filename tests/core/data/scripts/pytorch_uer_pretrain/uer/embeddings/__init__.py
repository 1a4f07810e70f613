# Source: https://github.com/dbiir/UER-py/blob/5743050cc41f0f21986c9f938db5ac1726052629/uer/embeddings/__init__.py (copied unchanged below this line)
from uer.embeddings.embedding import Embedding
from uer.embeddings.dual_embedding import DualEmbedding
from uer.embeddings.word_embedding import WordEmbedding
from uer.embeddings.pos_embedding import PosEmbedding
from uer.embeddings.seg_embedding import SegEmbedding
from uer.embeddings.sinusoidalpos_embedding import SinusoidalposEmbedding


str2embedding = {"word": WordEmbedding, "pos": PosEmbedding, "seg": SegEmbedding,
                 "sinusoidalpos": SinusoidalposEmbedding, "dual": DualEmbedding,}

__all__ = ["Embedding", "WordEmbedding", "PosEmbedding", "SegEmbedding", "SinusoidalposEmbedding",
           "DualEmbedding", "str2embedding"]
