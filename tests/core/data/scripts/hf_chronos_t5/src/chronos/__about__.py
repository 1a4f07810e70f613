# Source: https://github.com/amazon-science/chronos-forecasting/blob/95185d1336e5bfdf50374d44c06ad9e10b303144/src/chronos/__about__.py (copied unchanged below this line)
__version__ = "2.3.0"
