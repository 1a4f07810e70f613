# Source: https://github.com/XiongDaowen/Integrated-Design-Diffusion-Model/blob/e4ee5299c5a070febb65541bf577ad9df507a3eb/model/samples/__init__.py (copied unchanged below this line)
#!/usr/bin/env python
# -*- coding:utf-8 -*-
"""
    @Date   : 2023/11/8 22:42
    @Author : chairc
    @Site   : https://github.com/chairc
"""
from .base import BaseDiffusion
from .ddim import DDIMDiffusion
from .ddpm import DDPMDiffusion
from .plms import PLMSDiffusion
