# Source: https://github.com/amazon-science/chronos-forecasting/blob/95185d1336e5bfdf50374d44c06ad9e10b303144/src/chronos/chronos2/__init__.py (copied unchanged below this line)
# Copyright Amazon.com, Inc. or its affiliates. All Rights Reserved.
# SPDX-License-Identifier: Apache-2.0

# Authors: Abdul Fatir Ansari <ansarnd@amazon.com>

from .config import Chronos2CoreConfig, Chronos2ForecastingConfig
from .model import Chronos2Model
from .pipeline import Chronos2Pipeline
from .dataset import Chronos2Dataset

__all__ = ["Chronos2CoreConfig", "Chronos2ForecastingConfig", "Chronos2Model", "Chronos2Pipeline", "Chronos2Dataset"]
