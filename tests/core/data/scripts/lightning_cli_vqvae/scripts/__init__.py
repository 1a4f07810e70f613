# Source: https://github.com/nomutin/VQVAE-Lightning/blob/1c65ae269565931ca3c82692168a47d85e6b0e29/scripts/__init__.py (copied unchanged below this line)
"""Scripts."""
