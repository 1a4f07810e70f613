# Source: https://github.com/dbiir/UER-py/blob/5743050cc41f0f21986c9f938db5ac1726052629/uer/model_loader.py (copied unchanged below this line)
import torch


def load_model(model, model_path):
    """
    Load model from saved weights.
    """
    if hasattr(model, "module"):
        model.module.load_state_dict(torch.load(model_path, map_location="cpu"), strict=False)
    else:
        model.load_state_dict(torch.load(model_path, map_location="cpu"), strict=False)
    return model
