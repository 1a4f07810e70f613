# Source: https://github.com/remicres/otbtf/blob/595f9d413783a3800eb38d87806ba4560e7d564c/otbtf/examples/tensorflow_v2x/fcnn/__init__.py (copied unchanged below this line)
"""
Example showing how to work with a small fully convolutional network from
patches extracted in images.
"""
