# Source: https://github.com/KookHoiKim/GroupFree3dBaseline/blob/08f93cd0e65176517339aecd302e4d58123529f0/models/__init__.py (copied unchanged below this line)
from .detector import GroupFreeDetector
from .loss_helper import get_loss
from .ap_helper import APCalculator, parse_predictions, parse_groundtruths