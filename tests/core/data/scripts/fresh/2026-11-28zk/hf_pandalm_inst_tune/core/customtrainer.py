# Source: https://github.com/WeOpenML/PandaLM/blob/3871806e72b4832f815ecafd24d3503c73403f48/pandalm/core/customtrainer.py (copied unchanged below this line)
from transformers import Trainer
import logging
class CustomTrainer(Trainer):
    def placeholder_func(self):
        logging.warning("Using CustomTrainer. This is a placeholder fuction...")
 
