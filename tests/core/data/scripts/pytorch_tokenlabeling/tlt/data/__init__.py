# Source: https://github.com/zihangJiang/TokenLabeling/blob/9dbfd59aedecfe83f6f3253db4e99b82359d48ac/tlt/data/__init__.py (copied unchanged below this line)
from .dataset import DatasetTokenLabel, create_token_label_dataset
from .loader import create_token_label_loader
from .label_transforms_factory import create_token_label_transform
from .mixup import TokenLabelMixup, FastCollateTokenLabelMixup, mixup_target as create_token_label_target

