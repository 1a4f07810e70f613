# Source: https://github.com/zzh8829/yolov3-tf2/blob/2784050f2fc1ff060f4c8b3ac2db231370569aa8/yolov3_tf2/__init__.py (copied unchanged below this line)
