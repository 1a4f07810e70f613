# Source: https://github.com/svc-develop-team/so-vits-svc/blob/730930d337d171479eadf305f96cbed4bb393e77/modules/F0Predictor/rmvpe/__init__.py (copied unchanged below this line)
from .constants import *  # noqa: F403
from .inference import RMVPE  # noqa: F401
from .model import E2E, E2E0  # noqa: F401
from .spec import MelSpectrogram  # noqa: F401
from .utils import (  # noqa: F401
    cycle,
    summary,
    to_local_average_cents,
    to_viterbi_cents,
)
