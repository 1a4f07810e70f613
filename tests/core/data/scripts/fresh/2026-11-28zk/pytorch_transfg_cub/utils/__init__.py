# Source: https://github.com/TACJu/TransFG/blob/9336fba46a4ac8ed2e33072c5f74ab459b114e4a/utils/__init__.py (copied unchanged below this line)
