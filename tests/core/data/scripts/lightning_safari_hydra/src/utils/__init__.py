# Source: https://github.com/HazyResearch/safari/blob/02220c69d247e5473616cd053a443ad99fd2559b/src/utils/__init__.py (copied unchanged below this line)
from .config import is_list, is_dict, to_list, to_dict, get_class, instantiate
