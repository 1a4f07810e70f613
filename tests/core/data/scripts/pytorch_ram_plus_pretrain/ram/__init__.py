# Source: https://github.com/xinyu1205/recognize-anything/blob/7cb804a8609e9f4b1a50b7f31436d2df40bb9481/ram/__init__.py (copied unchanged below this line)
from .inference import inference_tag2text, inference_ram, inference_ram_openset
from .transform import get_transform
