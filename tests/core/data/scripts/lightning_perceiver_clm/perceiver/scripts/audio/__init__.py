# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/scripts/audio/__init__.py (copied unchanged below this line)
from perceiver.data.audio import GiantMidiPianoDataModule, MaestroV3DataModule
