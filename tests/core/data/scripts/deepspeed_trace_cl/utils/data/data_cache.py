# Source: https://github.com/BeyonderXX/TRACE/blob/462e39f616134f4f819efeb3baea8638c03c7db4/utils/data/data_cache.py (copied unchanged below this line)
import os
import datasets
from datasets import load_dataset

DATA_PATH = "/mnt/petrelfs/wangxiao/DATA"


ds_name = "Anthropic/hh-rlhf"
dataset = load_dataset("Anthropic/hh-rlhf")
out_path = os.path.join(DATA_PATH, ds_name)
dataset.save_to_disk(out_path)


dataset = datasets.load_from_disk(out_path)
