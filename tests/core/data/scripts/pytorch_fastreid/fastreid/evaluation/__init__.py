# Source: https://github.com/JDAI-CV/fast-reid/blob/c9bc3ceb2f7a6438b62fb515ea3df6d1e999e95d/fastreid/evaluation/__init__.py (copied unchanged below this line)
from .evaluator import DatasetEvaluator, inference_context, inference_on_dataset
from .reid_evaluation import ReidEvaluator
from .clas_evaluator import ClasEvaluator
from .testing import print_csv_format, verify_results

__all__ = [k for k in globals().keys() if not k.startswith("_")]
