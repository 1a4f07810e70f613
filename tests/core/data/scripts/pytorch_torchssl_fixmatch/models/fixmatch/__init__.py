# Source: https://github.com/TorchSSL/TorchSSL/blob/f26e1d42967cec7f7c8a00c2e7ff9219d8ab7c92/models/fixmatch/__init__.py (copied unchanged below this line)
