# Source: https://github.com/sunzeyeah/RLHF/blob/cd1a6d54971eb0513f38974aa6dcca53aa2f3174/src/utils/logger.py (copied unchanged below this line)

import os
import logging.config

from src.utils.config import RESOURCE_PATH

logging.config.fileConfig(os.path.join(RESOURCE_PATH, "config", "log.conf"), disable_existing_loggers=False)
logger = logging.getLogger(__name__)
