"""A table's rows, read under the header line a stream printed before them: each number is
its column's (a counter's, or a metric's). What `progress_line` reads a header and its rows with.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tui.logs import progress_names as names
from tui.logs.progress_fields import BAR, Found, counter, number

_SEPARATORS = (",", "|", "\t", ";")
"""What a table's cells may lie between, in the order tried (Keras' CSVLogger takes any one)."""
_RULE_BAR = re.compile(r"\d{1,3}%\s*[━╸╺─]+\s*(?P<n>\d+)/(?P<total>\d+)\s")
"""A bar drawn in rules (`100% ━━━━━━━━━━━━ 409/409 1.5it/s 4:25`: Ultralytics 8.3's), its count."""
_COLUMN_GAP = re.compile(r"\s{2,}")
_LIST = re.compile(r"^\[(?P<items>[^\[\]]*)\]$")
_HEAD_TOKEN = re.compile(r"^(?:[A-Za-z][\w()./-]*|%)$")
_HEAD_CELL = re.compile(r"^[A-Za-z][\w()./-]*(?: [A-Za-z(][\w()./-]*){0,3}$")
"""A bar-separated column's name: up to four words (`Elapsed Time (seconds)`)."""


@dataclass(slots=True)
class Header:
    """A table's column names, printed once before its rows: by word (`Epoch GPU_mem box_loss`)
    and by gap (`Itn.  Dep Loss  NER Loss`: a name of two words between wide gaps)."""

    tokens: list[str]
    columns: list[str]
    epoch: bool
    """An epoch column: its rows may trail a bar (`3/30 13.1G 1.5 … 576: 100%|███| 8/8`)."""
    sep: str | None = None
    """Cells between commas (`Epoch ,FinishTime ,LR ,RMSE_Train ,RMSE_Val`), semicolons or bars
    (`Step | Training Loss | Validation Loss`, `| Iteration | Training Loss |`): a row's too."""


_PARTS = ("box", "obj", "cls")
"""Columns of an epoch table that are parts of the loss by name alone (YOLOv5's `Epoch gpu_mem
box obj cls`: its later versions call them `box_loss …`)."""


def is_header(line: str) -> Header | None:
    """Column names with no number, one a loss: `Epoch GPU_mem box_loss cls_loss … Size`,
    `LOSS  P  R  F`, `Itn.  Dep Loss  NER Loss  UAS …`; a row under it is read by its header."""
    if (sep := next((sep for sep in _SEPARATORS if sep in line), None)) is not None:
        return _cells_header(line, sep)
    tokens = line.split()
    if not 2 <= len(tokens) <= 24 or not all(_HEAD_TOKEN.match(t) for t in tokens):
        return None
    low = [t.lower() for t in tokens]
    epoch = "epoch" in low
    if epoch and any("loss" in t or t in ("total", *_PARTS) for t in low):
        return Header(tokens, tokens, True)
    if not any(names.is_loss(t) for t in low):
        return None
    return Header(tokens, _COLUMN_GAP.split(line.strip()), False)


def _cells(line: str, sep: str) -> list[str]:
    """A line's cells between `sep`s (a bordered row's outer bars are no cells)."""
    line = line.strip()
    if sep == "|":
        line = line.removeprefix("|").removesuffix("|")
    return [cell.strip() for cell in line.split(sep)]


def _cells_header(line: str, sep: str) -> Header | None:
    """Names between commas, bars or tabs, three or more (or a counter and a metric), one of them
    a counter or a loss (`Epoch
    ,FinishTime ,LR ,RMSE_Train ,RMSE_Val`: a CSV log a trainer appends a row to; `| Iteration
    | Training Loss | Elapsed Time (seconds) |`: a table a trainer or a notebook draws)."""
    cells = _cells(line, sep)
    head = _HEAD_TOKEN if sep in ",;" else _HEAD_CELL
    if not 2 <= len(cells) <= 24 or not all(head.match(c) for c in cells):
        return None
    low = [c.lower() for c in cells]
    counted = [c in names.EPOCH_KEYS or c in names.STEP_KEYS for c in low]
    if not any(counted) and not any(names.is_loss(c) for c in low):
        return None
    if len(cells) == 2 and not (any(counted) and any(map(names.is_metric_name, low))):
        return None  # two names: a counter and a metric (CatBoost's `iter\tLogloss`), no pair
    return Header(cells, cells, False, sep=sep)


def _cells_row(line: str, header: Header, sep: str) -> Found | None:
    """A row of as many cells between `sep`s as `header` has names; a cell that is no number
    (a time, an empty cell, `[0.001]`) is left out."""
    cells = _cells(line, sep)
    if len(cells) == 1 and sep == ",":  # `epoch,step,tr_loss` over rows between tabs or spaces
        cells = line.split()
    if len(cells) != len(header.tokens):
        return None
    found = Found(structured=True)
    for name, cell in zip(header.tokens, cells, strict=True):
        if (value := number(cell.strip())) is None:
            continue
        if not counter(names.words_of(name), name, cell.strip(), None, found, ""):
            found.pairs.append((name, value, "", None))
    return found if found.pairs or found.epoch is not None or found.step is not None else None


def table_row(line: str, header: Header) -> Found | None:
    """A row under `header`: each number is its column's (a counter's, or a metric's)."""
    if header.sep is not None:
        return _cells_row(line, header, header.sep)
    if not header.epoch:
        if "[" in line:
            return _list_row(_COLUMN_GAP.split(line.strip()), header)
        return _plain_row(line.split(), header)
    tokens = line.split()
    if len(tokens) < len(header.tokens):
        return None
    found = Found(structured=True)
    numbers = 0
    for name, token in zip(header.tokens, tokens, strict=False):
        token = token.rstrip(":")
        low = name.lower()
        if low == "epoch":
            e, _, es = token.partition("/")
            if not e.isdigit():
                return None
            found.epoch = float(e)
            found.epochs = int(es) if es.isdigit() else None
            continue
        if (value := number(token)) is None:
            continue
        numbers += 1
        found.pairs.append((f"{name}_loss" if low in _PARTS else name, value, "", None))
    if numbers < 2 or found.epoch is None:
        return None
    rest = line.split(maxsplit=len(header.tokens))[-1] if len(tokens) > len(header.tokens) else ""
    if (m := BAR.search(rest) or _RULE_BAR.search(rest)) is not None:
        found.count(7, int(float(m["n"])), int(float(m["total"])), position=True)
    return found


def _plain_row(tokens: list[str], header: Header) -> Found | None:
    """A row of numbers only, one under each column (by word, else by gap); a row of another
    width, or with a word in it, is not the table's."""
    if len(tokens) == len(header.tokens):
        columns = header.tokens
    elif len(tokens) == len(header.columns):
        columns = header.columns
    else:
        return None
    values = [number(token) for token in tokens]
    if None in values:
        return None
    found = Found(structured=True)
    for name, token, value in zip(columns, tokens, values, strict=True):
        if not counter(names.words_of(name), name, token, None, found, ""):
            found.pairs.append((name, value, "", None))
    return found


def _list_row(cells: list[str], header: Header) -> Found | None:
    """A row of cells between wide gaps, one under each column named by gap, where a cell may
    be a list (`1000      [1.55e+01, 2.02e+00]    [2.84e+01, 4.46e+00]    [9.40e-01]`): a list
    under a loss's column is that loss's terms, printed with no total, so their sum is it."""
    if len(cells) != len(header.columns):
        return None
    found = Found(structured=True)
    for name, cell in zip(header.columns, cells, strict=True):
        if (m := _LIST.match(cell)) is None:
            if (value := number(cell)) is None:
                return None
            if not counter(names.words_of(name), name, cell, None, found, ""):
                found.pairs.append((name, value, "", None))
            continue
        terms = [number(item.strip()) for item in m["items"].split(",")]
        if not terms or None in terms or (len(terms) > 1 and not names.is_loss(name.lower())):
            continue  # a list of several values that is no loss's terms: no one number
        found.pairs.append((name, math.fsum(terms), "", None))
    return found if found.pairs or found.step is not None else None
