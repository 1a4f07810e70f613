# Source: https://github.com/asyml/texar/blob/83b1f22a6c8b070d45d2b4511e2b961a2e60d95e/examples/bert/utils/__init__.py (copied unchanged below this line)
