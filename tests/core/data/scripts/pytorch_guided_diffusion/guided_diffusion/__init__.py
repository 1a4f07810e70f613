# Source: https://github.com/openai/guided-diffusion/blob/22e0df8183507e13a7813f8d38d51b072ca1e67c/guided_diffusion/__init__.py (copied unchanged below this line)
"""
Codebase for "Improved Denoising Diffusion Probabilistic Models".
"""
