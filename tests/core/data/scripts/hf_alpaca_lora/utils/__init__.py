# Source: https://github.com/tloen/alpaca-lora/blob/8bb8579e403dc78e37fe81ffbb253c413007323f/utils/__init__.py (copied unchanged below this line)
