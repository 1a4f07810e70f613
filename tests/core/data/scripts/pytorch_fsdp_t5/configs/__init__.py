from .fsdp import fsdp_config
from .training import train_config
