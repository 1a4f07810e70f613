# Source: https://github.com/XiongDaowen/Integrated-Design-Diffusion-Model/blob/e4ee5299c5a070febb65541bf577ad9df507a3eb/model/modules/__init__.py (copied unchanged below this line)
#!/usr/bin/env python
# -*- coding:utf-8 -*-
"""
    @Date   : 2023/11/8 22:43
    @Author : chairc
    @Site   : https://github.com/chairc
"""
from .activation import get_activation_function
from .attention import SelfAttention
from .block import DownBlock, UpBlock, CSPDarkDownBlock, CSPDarkUpBlock
