# Source: https://github.com/KevinRojas1499/Sampling-Mixed-Gaussian/blob/f1641668d96688b87b231fd784d2e3133b74f4ff/diffusion/models/__init__.py
