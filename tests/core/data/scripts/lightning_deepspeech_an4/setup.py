# Source: https://github.com/SeanNaren/deepspeech.pytorch/blob/b88a631ef6b96553e16bbaa5bd6a621435bed278/setup.py (copied unchanged below this line)
from setuptools import setup, find_packages

setup(name='deepspeech_pytorch',
      version='0.1',
      author='SeanNaren',
      packages=find_packages(),
      zip_safe=False,
      )
