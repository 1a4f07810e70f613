# Source: https://github.com/facebookresearch/pycls/blob/5719de641657c251f807c20a1fcf8ef6f4b60144/pycls/__init__.py (copied unchanged below this line)
