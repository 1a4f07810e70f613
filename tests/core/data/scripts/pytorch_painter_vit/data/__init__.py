# Source: https://github.com/baaivision/Painter/blob/cfec84587da2a2cc4e0b9acebe6fba1666e66477/Painter/data/__init__.py (copied unchanged below this line)
