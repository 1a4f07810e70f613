# Source: https://github.com/afiaka87/latent-diffusion-deepspeed/blob/5ede46dcc9e217ef56a37f97bd5e3913b9b19435/clip_custom/__init__.py (copied unchanged below this line)
from .clip import *
