# Source: https://github.com/salesforce/ALBEF/blob/b9727e43c3040491774d1b22cc27718aa7772fac/refTools/evaluation/rouge/__init__.py (copied unchanged below this line)
__author__ = 'vrama91'
