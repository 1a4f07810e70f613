# Source: https://github.com/kalininalab/ProtPreTrain/blob/69960b4f4383f79455700aac0bc0bc80d837f014/step/version.py (copied unchanged below this line)
version = "1.0.0"
