# Source: https://github.com/bojone/bert4keras/blob/c1ae0dc5eff66d329ab3c5c7ee369124ddbb6f87/bert4keras/__init__.py (copied unchanged below this line)
#! -*- coding: utf-8 -*-

__version__ = '0.11.5'
