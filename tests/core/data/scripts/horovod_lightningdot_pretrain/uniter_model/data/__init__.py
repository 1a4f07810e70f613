# Source: https://github.com/intersun/LightningDOT/blob/a597f3f9da3d8923402f8294d1b58e734412aec0/uniter_model/data/__init__.py (copied unchanged below this line)
from .data import (TxtTokLmdb, DetectFeatLmdb,
                   ConcatDatasetWithLens, ImageLmdbGroup)
from .mlm import (MlmDataset, MlmEvalDataset,
                  BlindMlmDataset, BlindMlmEvalDataset,
                  mlm_collate, mlm_eval_collate,
                  mlm_blind_collate, mlm_blind_eval_collate)
from .mrm import (MrfrDataset, OnlyImgMrfrDataset,
                  MrcDataset, OnlyImgMrcDataset,
                  mrfr_collate, mrfr_only_img_collate,
                  mrc_collate, mrc_only_img_collate)
from .itm import (TokenBucketSamplerForItm,
                  ItmDataset, itm_collate, itm_ot_collate,
                  ItmRankDataset, ItmRankDatasetHardNeg, itm_rank_collate,
                  ItmRankDatasetHardNegFromText,
                  ItmRankDatasetHardNegFromImage, itm_rank_hnv2_collate,
                  ItmHardNegDataset, itm_hn_collate,
                  ItmValDataset, itm_val_collate,
                  ItmEvalDataset, itm_eval_collate)
from .sampler import TokenBucketSampler, DistributedSampler
from .loader import MetaLoader, PrefetchLoader

from .vqa import VqaDataset, vqa_collate, VqaEvalDataset, vqa_eval_collate
from .nlvr2 import (Nlvr2PairedDataset, nlvr2_paired_collate,
                    Nlvr2PairedEvalDataset, nlvr2_paired_eval_collate,
                    Nlvr2TripletDataset, nlvr2_triplet_collate,
                    Nlvr2TripletEvalDataset, nlvr2_triplet_eval_collate)
from .ve import VeDataset, ve_collate, VeEvalDataset, ve_eval_collate
