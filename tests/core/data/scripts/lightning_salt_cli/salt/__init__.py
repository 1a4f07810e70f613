# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/__init__.py (copied unchanged below this line)
"""Top-level package for SALT.

This package contains models, callbacks, utilities and training logic for
multimodal and multiclass machine learning in HEP.
"""

from __future__ import annotations

__all__ = ["__version__"]

# Keep dynamic version for setuptools
__version__ = "0.13.0"
