# Source: https://github.com/sina-nabavi/PSMGD-VR-DeepSpeed/blob/f947af076403c4cbbcea7a9221365b14cb03cd5f/LibMTL/__init__.py (copied unchanged below this line)
from . import architecture
from . import model
from . import weighting
from .trainer import Trainer
from .trainer_ds import Trainer_DS
from . import config
from . import loss
from . import metrics
#from .record import PerformanceMeter
from . import utils