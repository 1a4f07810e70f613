# Source: https://github.com/kalininalab/ProtPreTrain/blob/69960b4f4383f79455700aac0bc0bc80d837f014/step/data/__init__.py (copied unchanged below this line)
from .datamodules import FluorescenceDataModule, FoldCompDataModule, HomologyDataModule, StabilityDataModule, DTIDataModule
from .datasets import FluorescenceDataset, FoldCompDataset, HomologyDataset, StabilityDataset, DTIDataset
from .transforms import MaskType, MaskTypeAnkh, MaskTypeBERT, MaskTypeWeighted, PosNoise, RandomWalkPE, ToCpu, ToCuda
from .utils import apply_edits, compute_edits
