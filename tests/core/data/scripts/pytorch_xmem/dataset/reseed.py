# Source: https://github.com/hkchengrex/XMem/blob/f3b841d50df058910bbf690229ddc15fb1aef7d6/dataset/reseed.py (copied unchanged below this line)
import torch
import random

def reseed(seed):
    random.seed(seed)
    torch.manual_seed(seed)