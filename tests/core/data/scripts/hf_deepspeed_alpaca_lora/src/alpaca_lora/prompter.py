# Source: https://github.com/justinphan3110/deepspeed_lora/blob/ec085f294153e53d8430f69fa67b33380fbbf7d1/src/alpaca_lora/prompter.py (copied unchanged below this line)
"""
A dedicated helper to manage templates and prompt building.
"""

import json
import os.path as osp
from typing import Union

PROMPT = {
    "description": "Template used by Alpaca-LoRA.",
    "prompt_input": "Below is an instruction that describes a task, paired with an input that provides further context. Write a response that appropriately completes the request.\n\n### Instruction:\n{instruction}\n\n### Input:\n{input}\n\n### Response:\n",
    "prompt_no_input": "Below is an instruction that describes a task. Write a response that appropriately completes the request.\n\n### Instruction:\n{instruction}\n\n### Response:\n",
    "response_split": "### Response:"    
}

class Prompter(object):
    __slots__ = ("template", "_verbose")

    def __init__(self, template: str = None, verbose: bool = False):
        self._verbose = verbose

        if not template:
            self.template = PROMPT
        else:
            assert osp.exists(template), f"Can't find template file {template}"
            print("Using template", template)
            with open(template) as fp:
                self.template = json.load(fp)

        print("=========Prompt Template==========")
        print(self.template)

    def generate_prompt(
        self,
        instruction: str,
        input: Union[None, str] = None,
        label: Union[None, str] = None,
    ) -> str:
        # returns the full prompt from instruction and optional input
        # if a label (=response, =output) is provided, it's also appended.
        if input:
            res = self.template["prompt_input"].format(
                instruction=instruction, input=input
            )
        else:
            res = self.template["prompt_no_input"].format(
                instruction=instruction
            )
        if label:
            res = f"{res}{label}"
        if self._verbose:
            print(res)
        return res

    def get_response(self, output: str) -> str:
        return output.split(self.template["response_split"])[1].strip()