# Source: https://github.com/svc-develop-team/so-vits-svc/blob/730930d337d171479eadf305f96cbed4bb393e77/modules/F0Predictor/fcpe/__init__.py (copied unchanged below this line)
from .model import FCPEInfer  # noqa: F401
from .nvSTFT import STFT  # noqa: F401
from .pcmer import PCmer  # noqa: F401
