# Source: https://github.com/KookHoiKim/GroupFree3dBaseline/blob/08f93cd0e65176517339aecd302e4d58123529f0/utils/__init__.py (copied unchanged below this line)
from .lr_scheduler import get_scheduler
from .logger import setup_logger