# Source: https://github.com/FoundationVision/LlamaGen/blob/ce98ec41803a74a90ce68c40ababa9eaeffeb4ec/dataset/pexels.py (copied unchanged below this line)
from torchvision.datasets import ImageFolder

def build_pexels(args, transform):
    return ImageFolder(args.data_path, transform=transform)