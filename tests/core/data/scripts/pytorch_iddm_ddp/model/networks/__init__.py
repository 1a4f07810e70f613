# Source: https://github.com/XiongDaowen/Integrated-Design-Diffusion-Model/blob/e4ee5299c5a070febb65541bf577ad9df507a3eb/model/networks/__init__.py (copied unchanged below this line)
#!/usr/bin/env python
# -*- coding:utf-8 -*-
"""
    @Date   : 2023/11/8 22:43
    @Author : chairc
    @Site   : https://github.com/chairc
"""
# Diffusion model network
from .base import BaseNet
from .cspdarkunet import CSPDarkUnet
from .unet import UNet
from .unetv2 import UNetV2

# Super resolution network
from .sr.srv1 import SRv1
