# Source: https://github.com/ChenRocks/UNITER/blob/1dbfa62bb8ddb1f2b11d20775ce324c5e45a3ab4/data/__init__.py (copied unchanged below this line)
"""
Copyright (c) Microsoft Corporation.
Licensed under the MIT license.

"""
from .data import (TxtTokLmdb, DetectFeatLmdb,
                   ImageLmdbGroup, ConcatDatasetWithLens)
from .sampler import TokenBucketSampler
from .loader import PrefetchLoader, MetaLoader
from .vqa import VqaDataset, VqaEvalDataset, vqa_collate, vqa_eval_collate
from .ve import VeDataset, VeEvalDataset, ve_collate, ve_eval_collate
from .nlvr2 import (Nlvr2PairedDataset, Nlvr2PairedEvalDataset,
                    Nlvr2TripletDataset, Nlvr2TripletEvalDataset,
                    nlvr2_paired_collate, nlvr2_paired_eval_collate,
                    nlvr2_triplet_collate, nlvr2_triplet_eval_collate)
from .itm import (TokenBucketSamplerForItm, ItmDataset,
                  itm_collate, itm_ot_collate,
                  ItmRankDataset, ItmValDataset, ItmEvalDataset,
                  ItmRankDatasetHardNegFromImage,
                  ItmRankDatasetHardNegFromText,
                  itm_rank_collate, itm_val_collate, itm_eval_collate,
                  itm_rank_hn_collate)
from .mlm import MlmDataset, mlm_collate
from .mrm import MrfrDataset, MrcDataset, mrfr_collate, mrc_collate
from .vcr import (VcrTxtTokLmdb, VcrDataset, VcrEvalDataset,
                  vcr_collate, vcr_eval_collate)
from .re import (ReTxtTokLmdb, ReDataset, ReEvalDataset,
                 re_collate, re_eval_collate)
