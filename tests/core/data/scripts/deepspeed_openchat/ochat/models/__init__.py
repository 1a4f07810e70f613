# Source: https://github.com/imoneoi/openchat/blob/47a3596168ed90d8f948f63f458948c3db98e2b8/ochat/models/__init__.py (copied unchanged below this line)
from ochat.models.unpadded_llama import LlamaForCausalLM
from ochat.models.unpadded_mistral import MistralForCausalLM
from ochat.models.unpadded_gemma import GemmaForCausalLM
