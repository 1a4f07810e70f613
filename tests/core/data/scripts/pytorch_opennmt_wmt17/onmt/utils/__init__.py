# Source: https://github.com/OpenNMT/OpenNMT-py/blob/97111d97551c24857076a4102eabdb468b35cff4/onmt/utils/__init__.py (copied unchanged below this line)
"""Module defining various utilities."""
from onmt.utils.misc import use_gpu, set_random_seed
from onmt.utils.alignment import make_batch_align_matrix
from onmt.utils.report_manager import ReportMgr, build_report_manager
from onmt.utils.statistics import Statistics
from onmt.utils.optimizers import MultipleOptimizer, Optimizer, AdaFactor, FusedAdam
from onmt.utils.earlystopping import EarlyStopping, scorers_from_opts

__all__ = [
    "use_gpu",
    "set_random_seed",
    "ReportMgr",
    "build_report_manager",
    "Statistics",
    "MultipleOptimizer",
    "Optimizer",
    "AdaFactor",
    "FusedAdam",
    "EarlyStopping",
    "scorers_from_opts",
    "make_batch_align_matrix",
]
