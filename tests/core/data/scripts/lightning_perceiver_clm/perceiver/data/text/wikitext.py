# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/data/text/wikitext.py (copied unchanged below this line)
import os
from typing import Any

from datasets import DatasetDict, load_dataset

from perceiver.data.text.common import TextDataModule


class WikiTextDataModule(TextDataModule):
    def __init__(
        self,
        *args: Any,
        dataset_dir: str = os.path.join(".cache", "wikitext"),
        **kwargs: Any,
    ):
        super().__init__(dataset_dir, *args, **kwargs)

    def load_source_dataset(self) -> DatasetDict:
        dataset = load_dataset("wikitext", "wikitext-103-raw-v1", cache_dir=self.hparams.dataset_dir)
        return DatasetDict(train=dataset["train"], valid=dataset["validation"])
