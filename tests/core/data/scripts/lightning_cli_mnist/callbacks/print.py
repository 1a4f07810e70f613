# Source: https://github.com/jprost76/pytorch_lightning-CLI_mnist/blob/71bc3e340ec98256860e6f1c82ec7d18cfa12d3a/callbacks/print.py (copied unchanged below this line)
from pytorch_lightning.callbacks import Callback

class MyPrintingCallback(Callback):

    def __init__(self, p : int) -> None:
        super().__init__()
        self.p = p

    def on_train_start(self, trainer, pl_module):
        print("Training is starting")

    def on_train_end(self, trainer, pl_module):
        print("Training is ending")