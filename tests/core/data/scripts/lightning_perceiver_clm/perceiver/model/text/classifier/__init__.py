# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/text/classifier/__init__.py (copied unchanged below this line)
from perceiver.model.text.classifier.backend import (
    ClassificationDecoderConfig,
    TextClassifier,
    TextClassifierConfig,
    TextEncoderConfig,
)
from perceiver.model.text.classifier.huggingface import (
    convert_checkpoint,
    convert_imdb_classifier_checkpoint,
    PerceiverTextClassifier,
    PerceiverTextClassifierConfig,
)
from perceiver.model.text.classifier.lightning import LitTextClassifier
