# Source: https://github.com/ise-uiuc/magicoder/blob/3ef43f0feaa2a48c3bb86d0b1f0d4482912d2e18/src/magicoder/__init__.py (copied unchanged below this line)
from . import utils
