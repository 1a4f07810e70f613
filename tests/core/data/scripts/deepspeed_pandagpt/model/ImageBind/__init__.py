# Source: https://github.com/yxuansu/PandaGPT/blob/9b77e0412d42a468362b67d1892ff0f4f659a4f5/code/model/ImageBind/__init__.py (copied unchanged below this line)
from .models import imagebind_model
from .models.imagebind_model import ModalityType
