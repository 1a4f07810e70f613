# Source: https://github.com/Spijkervet/SimCLR/blob/2738efae85b3ca1b70b7919c5d7a7837d9d75235/simclr/modules/__init__.py (copied unchanged below this line)
from .nt_xent import NT_Xent
from .logistic_regression import LogisticRegression
from .lars import LARS
from .resnet import get_resnet
from .gather import GatherLayer
