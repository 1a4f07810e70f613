# Source: https://github.com/imoneoi/openchat/blob/47a3596168ed90d8f948f63f458948c3db98e2b8/ochat/config/model_config.py (copied unchanged below this line)
from typing import Optional, Callable, Iterable

from pydantic import BaseModel, ConfigDict


class ModelConfig(BaseModel):
    # Alias
    serving_aliases: Iterable[str] = ()

    # Model
    model_max_context: int
    model_tokenizer_create: Callable
    model_create_for_training: Callable

    # conversation template
    conversation_template: Callable
    hf_chat_template: Optional[str] = None

    model_config = ConfigDict(protected_namespaces=())  # Disables warnings for the model_ namespace used above
