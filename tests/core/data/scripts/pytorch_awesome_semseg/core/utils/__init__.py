# Source: https://github.com/Tramac/awesome-semantic-segmentation-pytorch/blob/d37d2a17221d2681ad454958cf06a1065e9b1f7f/core/utils/__init__.py (copied unchanged below this line)
"""Utility functions."""
from __future__ import absolute_import

from .download import download, check_sha1
from .filesystem import makedirs, try_import_pycocotools
