# Source: https://github.com/aim-qmul/sdx23-aimless/blob/878101248aeed466fe3a05d0645eab048b0fc393/data/lightning/__init__.py
from .musdb import MUSDB
from .dnr import DnR
from .bleed import Bleed
from .label_noise import LabelNoise
from .speech import SpeechNoise
