# Source: https://github.com/l294265421/alpaca-rlhf/blob/862df3122bce3e4a4acd9d8dda6e6c94f806fbb4/alpaca_rlhf/deepspeed_chat/training/utils/model/__init__.py (copied unchanged below this line)
