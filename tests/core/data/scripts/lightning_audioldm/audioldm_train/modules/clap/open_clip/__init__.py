# Source: https://github.com/haoheliu/AudioLDM-training-finetuning/blob/702a638d023b008a2d9a45cdf1e1f4fcdc590dfc/audioldm_train/modules/clap/open_clip/__init__.py (copied unchanged below this line)
from .factory import (
    list_models,
    create_model,
    create_model_and_transforms,
    add_model_config,
)
from .loss import ClipLoss, gather_features, LPLoss, lp_gather_features, LPMetrics
from .model import (
    CLAP,
    CLAPTextCfg,
    CLAPVisionCfg,
    CLAPAudioCfp,
    convert_weights_to_fp16,
    trace_model,
)
from .openai import load_openai_model, list_openai_models
from .pretrained import (
    list_pretrained,
    list_pretrained_tag_models,
    list_pretrained_model_tags,
    get_pretrained_url,
    download_pretrained,
)
from .tokenizer import SimpleTokenizer, tokenize
from .transform import image_transform
