# Source: https://github.com/JierunChen/FasterNet/blob/e8fba4465ae912359c9f661a72b14e39347e4954/utils/__init__.py (copied unchanged below this line)
