# Source: https://github.com/sunzeyeah/RLHF/blob/cd1a6d54971eb0513f38974aa6dcca53aa2f3174/src/utils/__init__.py (copied unchanged below this line)

from src.utils.config import *
from src.utils.logger import logger
from src.utils.nlp_utils import *
from src.utils.file_utils import *
from src.utils.loading import *
from src.utils.method_configs import *
from src.utils.modeling_utils import *