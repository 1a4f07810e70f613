# Source: https://github.com/linjieli222/HERO/blob/32c1c523c7a9f547a29f14c8e33dec24ebd14156/utils/const.py (copied unchanged below this line)
"""
Copyright (c) Microsoft Corporation.
Licensed under the MIT license.
constants
"""
VFEAT_DIM = 4352
MAX_FRM_SEQ_LEN = 100
VCMR_IOU_THDS = (0.5, 0.7)
