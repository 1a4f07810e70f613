# Source: https://github.com/sina-nabavi/PSMGD-VR-DeepSpeed/blob/f947af076403c4cbbcea7a9221365b14cb03cd5f/LibMTL/model/__init__.py (copied unchanged below this line)
from LibMTL.model.resnet import resnet18 
from LibMTL.model.resnet import resnet34
from LibMTL.model.resnet import resnet50 
from LibMTL.model.resnet import resnet101
from LibMTL.model.resnet import resnet152
from LibMTL.model.resnet import resnext50_32x4d 
from LibMTL.model.resnet import resnext101_32x8d
from LibMTL.model.resnet import wide_resnet50_2 
from LibMTL.model.resnet import wide_resnet101_2
from LibMTL.model.resnet_dilated import resnet_dilated

__all__ = ['resnet18', 'resnet34', 'resnet50', 'resnet101',
           'resnet152', 'resnext50_32x4d', 'resnext101_32x8d',
           'wide_resnet50_2', 'wide_resnet101_2', 'resnet_dilated']
