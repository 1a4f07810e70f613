# Source: https://github.com/megvii-research/NAFNet/blob/2b4af71ebe098a92a75910c233a3965a3e93ede4/basicsr/utils/__init__.py (copied unchanged below this line)
# ------------------------------------------------------------------------
# Copyright (c) 2022 megvii-model. All Rights Reserved.
# ------------------------------------------------------------------------
# Modified from BasicSR (https://github.com/xinntao/BasicSR)
# Copyright 2018-2020 BasicSR Authors
# ------------------------------------------------------------------------
from .file_client import FileClient
from .img_util import crop_border, imfrombytes, img2tensor, imwrite, tensor2img, padding
from .logger import (MessageLogger, get_env_info, get_root_logger,
                     init_tb_logger, init_wandb_logger)
from .misc import (check_resume, get_time_str, make_exp_dirs, mkdir_and_rename,
                   scandir, scandir_SIDD, set_random_seed, sizeof_fmt)
from .create_lmdb import (create_lmdb_for_reds, create_lmdb_for_gopro, create_lmdb_for_rain13k)

__all__ = [
    # file_client.py
    'FileClient',
    # img_util.py
    'img2tensor',
    'tensor2img',
    'imfrombytes',
    'imwrite',
    'crop_border',
    # logger.py
    'MessageLogger',
    'init_tb_logger',
    'init_wandb_logger',
    'get_root_logger',
    'get_env_info',
    # misc.py
    'set_random_seed',
    'get_time_str',
    'mkdir_and_rename',
    'make_exp_dirs',
    'scandir',
    'scandir_SIDD',
    'check_resume',
    'sizeof_fmt',
    'padding',
    'create_lmdb_for_reds',
    'create_lmdb_for_gopro',
    'create_lmdb_for_rain13k',
]
