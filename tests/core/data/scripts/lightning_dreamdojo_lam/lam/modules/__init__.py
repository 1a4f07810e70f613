# Source: https://github.com/eugene123tw/DreamDojo/blob/7f3379bcb831147c0cc170e79ba08471ad186497/external/lam_project/lam/modules/__init__.py (copied unchanged below this line)
from lam.modules.lam import LatentActionModel
