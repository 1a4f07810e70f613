# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/vision/image_classifier/__init__.py (copied unchanged below this line)
from perceiver.model.vision.image_classifier.backend import (
    ClassificationDecoderConfig,
    ImageClassifier,
    ImageClassifierConfig,
    ImageEncoderConfig,
)
from perceiver.model.vision.image_classifier.huggingface import (
    convert_checkpoint,
    convert_config,
    convert_mnist_classifier_checkpoint,
    convert_model,
    PerceiverImageClassifier,
    PerceiverImageClassifierConfig,
    PerceiverImageClassifierInputProcessor,
)
from perceiver.model.vision.image_classifier.lightning import LitImageClassifier
