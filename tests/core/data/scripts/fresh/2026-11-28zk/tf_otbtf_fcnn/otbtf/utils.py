# Source: https://github.com/remicres/otbtf/blob/595f9d413783a3800eb38d87806ba4560e7d564c/otbtf/utils.py (copied unchanged below this line)
# -*- coding: utf-8 -*-
# ==========================================================================
#
#   Copyright 2018-2019 IRSTEA
#   Copyright 2020-2023 INRAE
#
#   Licensed under the Apache License, Version 2.0 (the "License");
#   you may not use this file except in compliance with the License.
#   You may obtain a copy of the License at
#
#          http://www.apache.org/licenses/LICENSE-2.0.txt
#
#   Unless required by applicable law or agreed to in writing, software
#   distributed under the License is distributed on an "AS IS" BASIS,
#   WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
#   See the License for the specific language governing permissions and
#   limitations under the License.
#
# ==========================================================================*/
"""
[Source code :fontawesome-brands-github:](https://github.com/remicres/otbtf/
tree/master/otbtf/utils.py){ .md-button }

The utils module provides some helpers to read patches using gdal
"""
from osgeo import gdal
import numpy as np


def gdal_open(filename: str):
    """
    Open a GDAL raster

    Params:
        filename: raster file

    Returns:
        one GDAL dataset instance
    """
    gdal_ds = gdal.Open(filename)
    if not gdal_ds:
        raise Exception(f"Unable to open file {filename}")
    return gdal_ds


def read_as_np_arr(
        gdal_ds,
        as_patches: bool = True,
        dtype: np.dtype = None
) -> np.ndarray:
    """
    Read a GDAL raster as numpy array

    Params:
        gdal_ds: a GDAL dataset instance
        as_patches: if True, the returned numpy array has the following
            shape (n, psz_x, psz_x, nb_channels). If False, the shape is (1,
            psz_y, psz_x, nb_channels)
        dtype: if not None array dtype will be cast to given numpy data type
            (np.float32, np.uint16...)

    Returns
        Numpy array of dim 4

    """
    buffer = gdal_ds.ReadAsArray()
    size_x = gdal_ds.RasterXSize
    if len(buffer.shape) == 3:
        buffer = np.transpose(buffer, axes=(1, 2, 0))
    if as_patches:
        n_elems = int(gdal_ds.RasterYSize / size_x)
        size_y = size_x
    else:
        n_elems = 1
        size_y = gdal_ds.RasterYSize

    buffer = buffer.reshape((n_elems, size_y, size_x, gdal_ds.RasterCount))
    if dtype is not None:
        buffer = buffer.astype(dtype)

    return buffer
