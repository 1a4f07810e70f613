# Source: https://github.com/galaxygliese/Latent-DDBM/blob/cf1191b31458401b8e0bf0dd4b58f368d9fee016/diffusion/__init__.py (copied unchanged below this line)
from .model import *
from .denoisers import *
from .unet import *