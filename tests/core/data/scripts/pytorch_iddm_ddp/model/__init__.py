# Source: https://github.com/XiongDaowen/Integrated-Design-Diffusion-Model/blob/e4ee5299c5a070febb65541bf577ad9df507a3eb/model/__init__.py (copied unchanged below this line)
#!/usr/bin/env python
# -*- coding:utf-8 -*-
"""
    @Date   : 2023/6/20 17:43
    @Author : chairc
    @Site   : https://github.com/chairc
"""
