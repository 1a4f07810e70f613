# Source: https://github.com/pedroglrz/distributed-training-demo/blob/f5cbe210db51329e5b5b422812ef6b6a95a7e432/src/__init__.py (copied unchanged below this line)
