# Source: https://github.com/lusccc/Trajectory-Classification-using-Dual-CSA/blob/16051050feb1672185d08eb586a5001042a47d82/network_variant/__init__.py
