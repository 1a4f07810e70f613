# Source: https://github.com/yassouali/pytorch-segmentation/blob/33434fa987bbf348c961473c15f044b85e32ca7f/models/__init__.py (copied unchanged below this line)
from .fcn import FCN8
from .unet import UNet, UNetResnet
from .segnet import SegNet
from .segnet import SegResNet
from .enet import ENet
from .gcn import GCN
from .deeplabv3_plus import DeepLab
from .duc_hdc import DeepLab_DUC_HDC
from .upernet import UperNet
from .pspnet import PSPNet
from .pspnet import PSPDenseNet