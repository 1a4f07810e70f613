# Source: https://github.com/xinyu1205/recognize-anything/blob/7cb804a8609e9f4b1a50b7f31436d2df40bb9481/ram/models/__init__.py (copied unchanged below this line)
from .ram_plus import ram_plus
from .ram import ram
from .tag2text import tag2text
