# Source: https://github.com/p0p4k/vits2_pytorch/blob/1f4f3790568180f8dec4419d5cad5d0877b034bb/monotonic_align/setup.py (copied unchanged below this line)
from distutils.core import setup
from Cython.Build import cythonize
import numpy

setup(
    name="monotonic_align",
    ext_modules=cythonize("core.pyx"),
    include_dirs=[numpy.get_include()],
)
