# Source: https://github.com/WeOpenML/PandaLM/blob/3871806e72b4832f815ecafd24d3503c73403f48/pandalm/core/__init__.py (copied unchanged below this line)
from .customtrainer import CustomTrainer
from .nets import Nets
from .datasets import Datasets, DataCollatorForDataset
