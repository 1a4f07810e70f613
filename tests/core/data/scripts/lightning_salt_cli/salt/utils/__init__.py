# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/utils/__init__.py (copied unchanged below this line)
"""Utility functions for the SALT framework."""
