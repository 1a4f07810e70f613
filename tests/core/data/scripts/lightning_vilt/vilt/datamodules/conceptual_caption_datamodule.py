# Source: https://github.com/dandelin/ViLT/blob/762fd3975c180db6fc88f577cf39549983fa373a/vilt/datamodules/conceptual_caption_datamodule.py (copied unchanged below this line)
from vilt.datasets import ConceptualCaptionDataset
from .datamodule_base import BaseDataModule


class ConceptualCaptionDataModule(BaseDataModule):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    @property
    def dataset_cls(self):
        return ConceptualCaptionDataset

    @property
    def dataset_name(self):
        return "gcc"
