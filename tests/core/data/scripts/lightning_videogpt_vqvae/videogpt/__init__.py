# Source: https://github.com/wilson1yan/VideoGPT/blob/733d2b1541e166d7f29df514c7d196c768011dd2/videogpt/__init__.py (copied unchanged below this line)

from .vqvae import VQVAE
from .gpt import VideoGPT
from .data import VideoData
from .download import load_vqvae, load_videogpt, load_i3d_pretrained, download

