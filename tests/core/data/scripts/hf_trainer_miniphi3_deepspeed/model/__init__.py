# Source: https://github.com/niuwz/Mini-Chinese-Phi3/blob/ef130fb3d9902b17723c80dcddc0ad4f400e77be/model/__init__.py (copied unchanged below this line)
