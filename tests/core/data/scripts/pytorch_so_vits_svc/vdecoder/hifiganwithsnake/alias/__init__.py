# Source: https://github.com/svc-develop-team/so-vits-svc/blob/730930d337d171479eadf305f96cbed4bb393e77/vdecoder/hifiganwithsnake/alias/__init__.py (copied unchanged below this line)
# Adapted from https://github.com/junjun3518/alias-free-torch under the Apache License 2.0
#   LICENSE is in incl_licenses directory.

from .act import *  # noqa: F403
from .filter import *  # noqa: F403
from .resample import *  # noqa: F403
