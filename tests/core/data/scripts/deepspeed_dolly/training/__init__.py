# Source: https://github.com/databrickslabs/dolly/blob/e2d664ddf06e0723d818dc56d6c522ead4bd881d/training/__init__.py (copied unchanged below this line)
