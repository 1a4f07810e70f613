# Source: https://github.com/tangjzh/LAH/blob/eb20be6a9643e73be46de89977699604411b1144/datasets/youtubevln.py (copied unchanged below this line)
