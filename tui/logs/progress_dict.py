"""The fields of a line that holds a dict (JSON or a Python `repr`): a Trainer's log dict, a
metrics writer's record. What `progress_line` reads such a line with (see `progress_fields`)."""

from __future__ import annotations

import ast
import json
import math
import re

from tui.logs import progress_names as names
from tui.logs.progress_fields import NUM, Found, counter, number, text_fields

_DICT_MAX = 8_000
_TENSOR = re.compile(rf"tensor\((?P<value>{NUM})(?:,[^()]*)?\)")
"""A scalar tensor as torch prints it (`tensor(2)`, `tensor(0.51, device='cuda:0')`)."""
_COUNT = re.compile(r"\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)\s*")
"""A count written as a string, of its total."""
_DICT_VALUE = re.compile(rf"""(["'])(?P<k>[^"'\n]{{1,80}})\1\s*:\s*["']?(?P<v>{NUM})""")


_NONFINITE = {"nan": math.nan, "inf": math.inf, "NaN": math.nan, "Infinity": math.inf}
"""Bare names Python's repr prints for non-finite floats (a Trainer's `'grad_norm': nan`)."""


class _Nonfinite(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = _NONFINITE.get(node.id)
        return node if value is None else ast.Constant(value)


def _python_literal(text: str) -> object:
    """A dict printed by Python (`repr`), `nan` and `inf` included; None where it is none."""
    try:
        tree = ast.parse(text, mode="eval")
        if "nan" in text or "inf" in text or "NaN" in text or "Infinity" in text:
            tree = _Nonfinite().visit(tree)
        return ast.literal_eval(tree)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def dict_fields(line: str) -> Found | None:
    start, end = line.find("{"), line.rfind("}")
    text = line[start : end + 1]
    if end < start or len(text) > _DICT_MAX:
        return None
    data = None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        if "tensor(" in text:  # `'Accuracy': tensor(2)`: a tensor's repr, its value inside
            text = _TENSOR.sub(r"\g<value>", text)
        data = _python_literal(text)
    if not isinstance(data, dict) or not data:
        return None
    found = Found(structured=True)
    places = {m["k"]: m.span("v") for m in reversed(list(_DICT_VALUE.finditer(line)))}
    for key, raw in data.items():
        if not isinstance(key, str):
            continue
        if isinstance(raw, str):
            if key.lower() in ("mode", "phase", "split", "name", "stage") and (
                raw.lower() in names.EVAL_WORDS or raw.lower().startswith("val")
            ):
                found.evaluating = True
            if (m := _COUNT.fullmatch(raw)) is not None:  # `"iter": "10/29327"` (PySlowFast)
                counter(
                    names.words_of(key), key, m["i"], m["n"], found, "", (places.get(key), None)
                )
                continue
            raw = number(raw) if re.fullmatch(NUM, raw.strip()) else None
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            continue
        words = names.words_of(key)
        place = places.get(key)
        if counter(words, key, repr(raw), None, found, "", (place, None)):
            continue
        found.pairs.append((key, float(raw), "", place))
    if not found.pairs and found.step is None:
        return None
    if (found.epoch is None or found.step is None) and any(c.isdigit() for c in line[:start]):
        _lead_counters(line[:start], found)
    return found


def _lead_counters(lead: str, found: Found) -> None:
    """The epoch or step the text before the dict names (`INFO - Epoch 0: {'loss': 10.63}`),
    where the dict names none."""
    before = Found()
    text_fields(lead, before)
    if found.epoch is None and before.epoch is not None:
        found.set_epoch(before.epoch, before.epochs, (before.spans.get("epoch"), None))
    if found.step is None and before.step is not None:
        spans = (before.spans.get("step"), before.spans.get("total"))
        found.count(before.step_rank, before.step, before.total, before.position, spans)
