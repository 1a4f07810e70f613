# Source: https://github.com/01-ai/Yi/blob/f73194cc16e82df438bc01240b8e4b622209f3eb/finetune/constant.py (copied unchanged below this line)
SFT = 0
RM = 1
PPO = 2
RSFT = 3
DPO = 4
