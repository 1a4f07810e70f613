# Source: https://github.com/openai/consistency_models/blob/e32b69ee436d518377db86fb2127a3972d0d8716/cm/__init__.py (copied unchanged below this line)
"""
Codebase for "Improved Denoising Diffusion Probabilistic Models".
"""
