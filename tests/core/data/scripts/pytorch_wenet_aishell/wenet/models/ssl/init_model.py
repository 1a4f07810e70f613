# Source: https://github.com/wenet-e2e/wenet/blob/015469960db73eb19c49a48c020d5ac9db69bae5/wenet/models/ssl/init_model.py (copied unchanged below this line)
from wenet.models.ssl.bestrq.bestrq_model import BestRQModel
from wenet.models.ssl.w2vbert.w2vbert_model import W2VBERTModel
from wenet.models.ssl.wav2vec2.wav2vec2_model import Wav2vec2Model

WENET_SSL_MODEL_CLASS = {
    "w2vbert_model": W2VBERTModel,
    "wav2vec_model": Wav2vec2Model,
    "bestrq_model": BestRQModel
}


def init_model(configs, encoder):

    assert 'model' in configs
    model_type = configs['model']
    assert model_type in WENET_SSL_MODEL_CLASS.keys()
    model = WENET_SSL_MODEL_CLASS[model_type](encoder=encoder,
                                              **configs['model_conf'])
    return model
