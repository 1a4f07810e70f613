# Source: https://github.com/dedmari/lane-detection-SCNN-horovod/blob/527f366e2c69189f532323c515b5e594ce2ff867/src/config.py (copied unchanged below this line)
Dataset_Path = dict(
    CULane = "/mnt/culane_data/train_set",
    Tusimple = "/mnt/tusimple_data/train_set"
)
