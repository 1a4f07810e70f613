# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/core/classifier.py (copied unchanged below this line)
# ------------------------------------------------
#  Backwards-compatibility
# ------------------------------------------------

from perceiver.model.core.adapter import ClassificationOutputAdapter  # noqa: F401
from perceiver.model.core.config import ClassificationDecoderConfig  # noqa: F401
from perceiver.model.core.modules import PerceiverDecoder as ClassificationDecoder  # noqa: F401
