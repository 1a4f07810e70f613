# Source: https://github.com/zhegan27/VILLA/blob/1d5bc2bdbff301f5171385f1f47150450101a782/utils/const.py (copied unchanged below this line)
"""
Copyright (c) Microsoft Corporation.
Licensed under the MIT license.

constants
"""
IMG_DIM = 2048
IMG_LABEL_DIM = 1601
BUCKET_SIZE = 8192
