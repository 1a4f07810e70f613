# Source: https://github.com/xinyu1205/recognize-anything/blob/7cb804a8609e9f4b1a50b7f31436d2df40bb9481/setup.py (copied unchanged below this line)
import setuptools
setuptools.setup()
