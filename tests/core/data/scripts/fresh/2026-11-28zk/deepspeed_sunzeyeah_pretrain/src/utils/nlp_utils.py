# Source: https://github.com/sunzeyeah/RLHF/blob/cd1a6d54971eb0513f38974aa6dcca53aa2f3174/src/utils/nlp_utils.py (copied unchanged below this line)

import re

CLEAN_TEXT_PATTERN = re.compile(r"[\r\n]")


def clean_text(text):
    if not isinstance(text, str):
        return ""
    return CLEAN_TEXT_PATTERN.sub("", text)
