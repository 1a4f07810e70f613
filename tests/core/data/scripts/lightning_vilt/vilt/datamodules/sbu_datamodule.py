# Source: https://github.com/dandelin/ViLT/blob/762fd3975c180db6fc88f577cf39549983fa373a/vilt/datamodules/sbu_datamodule.py (copied unchanged below this line)
from vilt.datasets import SBUCaptionDataset
from .datamodule_base import BaseDataModule


class SBUCaptionDataModule(BaseDataModule):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    @property
    def dataset_cls(self):
        return SBUCaptionDataset

    @property
    def dataset_name(self):
        return "sbu"
