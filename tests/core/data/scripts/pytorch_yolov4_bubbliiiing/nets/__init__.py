# Source: https://github.com/bubbliiiing/yolov4-pytorch/blob/9571c250a3e26946eabc39398320fba8a045a90b/nets/__init__.py (copied unchanged below this line)
#