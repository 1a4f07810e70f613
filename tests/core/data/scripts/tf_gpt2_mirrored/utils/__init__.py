# Source: https://github.com/akanyaani/gpt-2-tensorflow2.0/blob/ab93122396a02bfd76530ac6b414a525970bba96/utils/__init__.py (copied unchanged below this line)
