# Source: https://github.com/aim-qmul/sdx23-aimless/blob/878101248aeed466fe3a05d0645eab048b0fc393/data/dataset/__init__.py
from .base import BaseDataset
from .fast_musdb import FastMUSDB
from .dnr import DnR
from .label_noise_bleed import LabelNoiseBleed
