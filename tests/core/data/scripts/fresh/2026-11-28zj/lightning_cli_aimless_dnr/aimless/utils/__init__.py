# Source: https://github.com/aim-qmul/sdx23-aimless/blob/878101248aeed466fe3a05d0645eab048b0fc393/aimless/utils/__init__.py
from .mwf import MWF


MDX_SOURCES = ["drums", "bass", "other", "vocals"]
SDX_SOURCES = ["music", "sfx", "speech"]
SE_SOURCES = ["speech", "noise"]
