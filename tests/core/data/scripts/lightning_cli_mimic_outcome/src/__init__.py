# Source: https://github.com/MohiniSingh02/EncoderOutcomePredictionDistilbert/blob/d2fdf6c030bfbb609444c97dd03c185656c0cb1e/src/__init__.py (copied unchanged below this line)
