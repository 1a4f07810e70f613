# Source: https://github.com/intersun/LightningDOT/blob/a597f3f9da3d8923402f8294d1b58e734412aec0/dvl/models/__init__.py (copied unchanged below this line)
