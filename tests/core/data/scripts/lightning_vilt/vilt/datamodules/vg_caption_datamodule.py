# Source: https://github.com/dandelin/ViLT/blob/762fd3975c180db6fc88f577cf39549983fa373a/vilt/datamodules/vg_caption_datamodule.py (copied unchanged below this line)
from vilt.datasets import VisualGenomeCaptionDataset
from .datamodule_base import BaseDataModule


class VisualGenomeCaptionDataModule(BaseDataModule):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    @property
    def dataset_cls(self):
        return VisualGenomeCaptionDataset

    @property
    def dataset_name(self):
        return "vg"
