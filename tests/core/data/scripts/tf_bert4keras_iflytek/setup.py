# Source: https://github.com/bojone/bert4keras/blob/c1ae0dc5eff66d329ab3c5c7ee369124ddbb6f87/setup.py (copied unchanged below this line)
#! -*- coding: utf-8 -*-

from setuptools import setup, find_packages

setup(
    name='bert4keras',
    version='0.11.5',
    description='an elegant bert4keras',
    long_description='bert4keras: https://github.com/bojone/bert4keras',
    license='Apache License 2.0',
    url='https://github.com/bojone/bert4keras',
    author='bojone',
    author_email='bojone@spaces.ac.cn',
    install_requires=['keras<=2.3.1'],
    packages=find_packages()
)
