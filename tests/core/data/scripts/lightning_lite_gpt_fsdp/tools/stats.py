# Source: https://github.com/awaelchli/lightning-examples/blob/78878fcf95ecb524a3b0a56f95eb0eef68c26251/examples/gpt/tools/stats.py (copied unchanged below this line)
import torch

def gpu_utilization(device: torch.device) -> float:
    return torch.cuda.utilization() if device.type == "cuda" else 0
