# Source: https://github.com/lllyasviel/ControlNet/blob/ed85cd1e25a5ed592f7d8178495b4483de0331bf/config.py (copied unchanged below this line)
save_memory = False
