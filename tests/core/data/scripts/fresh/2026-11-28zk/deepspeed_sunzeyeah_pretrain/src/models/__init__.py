# Source: https://github.com/sunzeyeah/RLHF/blob/cd1a6d54971eb0513f38974aa6dcca53aa2f3174/src/models/__init__.py (copied unchanged below this line)
from src.models.reward import RewardModel
from src.models.loss import PairWiseLoss
# from src.models.llama import LlamaForCausalLM, LlamaModel, LlamaPreTrainedModel