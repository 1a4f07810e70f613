# Source: https://github.com/ZFTurbo/Music-Source-Separation-Training/blob/ccc011abf7f89dd7922bb2888d48493b575c0289/models/bs_roformer/__init__.py (copied unchanged below this line)
from models.bs_roformer.bs_roformer import BSRoformer
from models.bs_roformer.bs_conformer import BSConformer
from models.bs_roformer.mel_band_roformer import MelBandRoformer
from models.bs_roformer.mel_band_conformer import MelBandConformer
