# Source: https://github.com/kalininalab/ProtPreTrain/blob/69960b4f4383f79455700aac0bc0bc80d837f014/step/models/__init__.py (copied unchanged below this line)
from .denoise import DenoiseModel
from .downstream import ClassificationModel, HomologyModel, RegressionModel, DTIModel
