"""Between the user and the model: the arguments as typed, split as a shell would, and the first
problem of a refused spec as one line (`friendly`) with the field it belongs to (`error_field`),
for the CLI's message and the wizard's focus."""

from __future__ import annotations

import shlex

from pydantic import ValidationError


def parse_args(text: str) -> tuple[str, ...]:
    """Split what a user typed into arguments, as a shell would (quotes group words).

    Raises ValueError with a readable message on unbalanced quotes.
    """
    try:
        return tuple(shlex.split(text))
    except ValueError as err:
        raise ValueError(f"args: {err}; close the quote or escape it with \\") from None


def friendly(err: ValidationError | ValueError) -> str:
    """The first problem of a validation error as one line: `field: what is wrong and the fix`."""
    if not isinstance(err, ValidationError):
        return str(err)
    first = err.errors(include_url=False)[0]
    if first["type"] == "job_rule":
        return first["msg"]
    field = ".".join(str(p) for p in first["loc"]) or "job"
    value = first.get("input")
    if len(repr(value)) > 60:  # a 5,000-digit number is not worth a screenful
        value = _Shown(repr(value)[:40] + f"… ({len(repr(value)):,} characters)")
    kind = first["type"]
    if kind.startswith("int_") or kind == "int_type":
        return f"{field}: expected a whole number, got {value!r}"
    if kind == "literal_error":
        expected = first.get("ctx", {}).get("expected", "")
        return f"{field}: {value!r} is not one of {expected}"
    if kind == "extra_forbidden":
        return f"{field}: unknown field; check the spelling (see `dtrain-tui preview --help`)"
    return f"{field}: {first['msg']}"


class _Shown(str):
    """Text shown as it is where a value's repr would be."""

    def __repr__(self) -> str:
        return str(self)


def error_field(err: ValidationError) -> str:
    """The spec field the first problem belongs to (for focusing the widget)."""
    first = err.errors(include_url=False)[0]
    if first["type"] == "job_rule":
        return str(first["ctx"]["field"])
    return ".".join(str(p) for p in first["loc"])
