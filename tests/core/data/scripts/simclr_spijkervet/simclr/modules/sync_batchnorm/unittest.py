# Source: https://github.com/Spijkervet/SimCLR/blob/2738efae85b3ca1b70b7919c5d7a7837d9d75235/simclr/modules/sync_batchnorm/unittest.py (copied unchanged below this line)
# -*- coding: utf-8 -*-
# File   : unittest.py
# Author : Jiayuan Mao
# Email  : maojiayuan@gmail.com
# Date   : 27/01/2018
#
# This file is part of Synchronized-BatchNorm-PyTorch.
# https://github.com/vacancy/Synchronized-BatchNorm-PyTorch
# Distributed under MIT License.

import unittest
import torch


class TorchTestCase(unittest.TestCase):
    def assertTensorClose(self, x, y):
        adiff = float((x - y).abs().max())
        if (y == 0).all():
            rdiff = "NaN"
        else:
            rdiff = float((adiff / y).abs().max())

        message = ("Tensor close check failed\n" "adiff={}\n" "rdiff={}\n").format(
            adiff, rdiff
        )
        self.assertTrue(torch.allclose(x, y), message)
