# Source: https://github.com/sail-sg/poolformer/blob/a075575b8b3dc3c76ecc5c49985d156167372bfa/models/__init__.py (copied unchanged below this line)
from .poolformer import *
from .metaformer import *