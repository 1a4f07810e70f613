# Source: https://github.com/xinyu1205/recognize-anything/blob/7cb804a8609e9f4b1a50b7f31436d2df40bb9481/ram/utils/__init__.py (copied unchanged below this line)
from .metrics import get_mAP, get_PR
from .openset_utils import build_openset_label_embedding, build_openset_llm_label_embedding
