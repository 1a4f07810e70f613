# Source: https://github.com/XiongDaowen/Integrated-Design-Diffusion-Model/blob/e4ee5299c5a070febb65541bf577ad9df507a3eb/utils/__init__.py (copied unchanged below this line)
#!/usr/bin/env python
# -*- coding:utf-8 -*-
"""
    @Date   : 2023/6/20 17:44
    @Author : chairc
    @Site   : https://github.com/chairc
"""
from .checkpoint import load_ckpt, load_model_ckpt, save_ckpt, separate_ckpt_weights
from .check import check_path_is_exist, check_and_create_dir
from .dataset import get_dataset
from .initializer import device_initializer, seed_initializer, network_initializer, loss_initializer, \
    optimizer_initializer, sample_initializer, lr_initializer, amp_initializer, generate_initializer
from .logger import CustomLogger
from .lr_scheduler import set_cosine_lr
from .utils import plot_images, plot_one_image_in_images, save_images, save_one_image_in_images, \
    setup_logging, delete_files, save_train_logging, check_and_create_dir
