# Source: https://github.com/vincent-163/transformer-arithmetic/blob/a8372dd310616e5e0eea5172ffed849bcdbf400d/train.py (copied unchanged below this line)
import main
import pytorch_lightning as pl
from pytorch_lightning.callbacks import ModelCheckpoint

if __name__ == "__main__":
    m = main.Model()
    trainer = pl.Trainer(
        gpus=1,
        accumulate_grad_batches=8,
        checkpoint_callback=ModelCheckpoint(),
        distributed_backend="ddp")
    trainer.fit(m)