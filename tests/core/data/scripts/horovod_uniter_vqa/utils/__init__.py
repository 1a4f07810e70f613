# Source: https://github.com/ChenRocks/UNITER/blob/1dbfa62bb8ddb1f2b11d20775ce324c5e45a3ab4/utils/__init__.py (copied unchanged below this line)
