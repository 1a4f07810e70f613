# Source: https://github.com/WeOpenML/PandaLM/blob/3871806e72b4832f815ecafd24d3503c73403f48/pandalm/core/global_var.py (copied unchanged below this line)
IGNORE_INDEX = -100
DEFAULT_PAD_TOKEN = "[PAD]"
DEFAULT_EOS_TOKEN = "</s>"
DEFAULT_BOS_TOKEN = "</s>"
DEFAULT_UNK_TOKEN = "</s>"
PROMPT_DICT = {
    "prompt_input": (
        "Below is an instruction that describes a task, paired with an input that provides further context. "
        "Write a response that appropriately completes the request.\n\n"
        "### Instruction:\n{instruction}\n\n### Input:\n{input}\n\n### Response:"
    ),
    "prompt_no_input": (
        "Below is an instruction that describes a task. "
        "Write a response that appropriately completes the request.\n\n"
        "### Instruction:\n{instruction}\n\n### Response:"
    ),
}

RAW_DATA_PROMPT_DICT = {
    "prompt_input": (
        "{input_sequence}\n"
    ),
    "prompt_no_input": (
        "{input_sequence}\n"
    ),
}


