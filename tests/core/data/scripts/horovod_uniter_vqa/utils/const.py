# Source: https://github.com/ChenRocks/UNITER/blob/1dbfa62bb8ddb1f2b11d20775ce324c5e45a3ab4/utils/const.py (copied unchanged below this line)
"""
Copyright (c) Microsoft Corporation.
Licensed under the MIT license.

constants
"""
IMG_DIM = 2048
IMG_LABEL_DIM = 1601
BUCKET_SIZE = 8192
