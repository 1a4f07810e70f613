# Source: https://github.com/BeyonderXX/TRACE/blob/462e39f616134f4f819efeb3baea8638c03c7db4/model/Replay/IDBR.py (copied unchanged below this line)
import torch
import torch.nn as nn
import transformers
import numpy as np
from tqdm import trange
import copy
import random
from model.base_model import CL_Base_Model
from tqdm import tqdm

