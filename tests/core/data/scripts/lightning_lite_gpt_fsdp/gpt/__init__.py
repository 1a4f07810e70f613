# Source: https://github.com/awaelchli/lightning-examples/blob/78878fcf95ecb524a3b0a56f95eb0eef68c26251/examples/gpt/gpt/__init__.py (copied unchanged below this line)
