# Source: https://github.com/justinphan3110/deepspeed_lora/blob/ec085f294153e53d8430f69fa67b33380fbbf7d1/src/alpaca_lora/__init__.py (copied unchanged below this line)
