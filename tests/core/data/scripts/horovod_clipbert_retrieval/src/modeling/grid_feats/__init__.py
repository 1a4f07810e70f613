# Source: https://github.com/jayleicn/ClipBERT/blob/a118b02bbe734a71bd6309e0ec6f5e155c373e20/src/modeling/grid_feats/__init__.py (copied unchanged below this line)
# Copyright (c) Facebook, Inc. and its affiliates. All Rights Reserved
from .config import add_attribute_config
from .build_loader import (
    build_detection_train_loader_with_attributes,
    build_detection_test_loader_with_attributes,
)
from .roi_heads import AttributeRes5ROIHeads, AttributeStandardROIHeads
from . import visual_genome