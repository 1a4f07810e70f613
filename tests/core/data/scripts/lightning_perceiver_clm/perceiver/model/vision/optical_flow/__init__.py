# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/vision/optical_flow/__init__.py (copied unchanged below this line)
from perceiver.model.vision.optical_flow.backend import (
    OpticalFlow,
    OpticalFlowConfig,
    OpticalFlowDecoderConfig,
    OpticalFlowEncoderConfig,
)
from perceiver.model.vision.optical_flow.huggingface import (
    convert_config,
    convert_model,
    OpticalFlowPerceiver,
    OpticalFlowPerceiverConfig,
    OpticalFlowPipeline,
)
