"""What a key in a log line means: a metric's normalised name, whether it is evaluation, a
counter, bookkeeping, and which of a line's losses is *the* training loss.

Keys arrive in every spelling trainers print (`Train Loss`, `train/loss_step`, `lm loss`,
`s0.loss_cls`, `valid_loss`, `loss train`, `Tot Loss`); they are split into words and judged by
their words, never by a list of whole keys per trainer.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

EVAL_WORDS = frozenset(
    {"val", "vali", "valid", "validation", "validate", "validating", "eval", "evaluation",
     "evaluate", "evaluating", "test", "testing", "dev", "heldout", "cv"}
)  # fmt: skip
"""A key or a line's lead with one of these words reports evaluation, not training."""
TRAIN_WORDS = frozenset({"train", "training", "trn", "learn"})
"""A key or a line's lead with one of these words reports training (CatBoost's `learn:`)."""
SET_WORDS = TRAIN_WORDS | EVAL_WORDS
"""A data set's name: a key of these alone names no measure."""
_TOTAL_WORDS = frozenset(
    {"train", "training", "trn", "reduced", "total", "tot", "overall", "avg", "average", "mean",
     "running", "batch", "step", "curr", "current", "lm", "global", "sum", "all", "full",
     "smoothed", "objective", "final", "epoch", "main"}
)  # fmt: skip
"""Qualifiers that leave a loss whole: `train_loss`, `total_loss`, `lm loss`, `loss_step`."""
_SUMS = frozenset({"total", "tot", "overall", "sum", "full"})
"""Qualifiers that say a loss is the sum of its parts (`Dekrloss/total`)."""
_LOSS_WORDS = frozenset({"loss", "cost", "xent"})
"""`cost` and `xent` (cross-entropy) stand for the loss itself."""
BOOKKEEPING = frozenset(
    {"scale", "scaler", "scales", "runtime", "samples", "sample", "second", "seconds", "per",
     "flos", "time", "num", "number", "count", "fn", "function", "type", "py", "idx", "v", "sec",
     "speed", "steps", "scheduler", "warmup", "decay", "min", "max", "init", "best", "epochs",
     "memory", "mem", "tokens", "throughput", "tflops", "mfu", "eta", "data", "size", "wps",
     "ups", "wpb", "bsz", "wall", "oom", "clip", "sen", "instances", "labels", "img", "consumed",
     "elapsed", "ips", "cost_s", "reader", "from", "to", "improved", "reached", "decreased",
     "skipped", "nan", "gpu", "ms", "iters", "iterations", "patience", "seed", "workers",
     "interval", "start", "save", "ckpt", "dataset", "length", "cumulative", "chars", "words",
     "remaining", "left", "rank", "world", "local", "dim", "param", "params", "parameters",
     "n", "bs", "shape", "version", "pid", "port", "threads", "s"}
)  # fmt: skip
"""A key with one of these words is speed, size or bookkeeping, not a metric to chart."""
_KNOWN = frozenset(
    {"loss", "cost", "xent", "acc", "accuracy", "accu", "lr", "ppl", "perplexity", "f1", "mae",
     "mse", "rmse", "wer", "cer", "bleu", "auc", "precision", "recall", "map", "dice", "iou",
     "nll", "kl", "psnr", "ssim", "top1", "top5"}
)  # fmt: skip
"""In free text a key counts only with one of these words (in a dict, a postfix or a table,
any key that is not bookkeeping)."""
EPOCH_KEYS = frozenset({"epoch", "ep", "epoch_idx", "cur_epoch", "current_epoch"})
STEP_KEYS = {
    "step": 0, "global_step": 0, "globalstep": 0, "train_step": 0, "optimizer_step": 0,
    "num_updates": 1, "updates": 1, "update": 1, "up": 1,
    "acc_iter": 2, "iter": 2, "iteration": 2, "it": 2, "total_iter": 2, "global_iter": 2,
    "iterations": 3, "cur_iter": 4, "itn": 2, "batch_idx": 9, "batch": 9, "steps": 5, "iters": 5,
    "timesteps": 3, "timestep": 3, "count": 5,
}  # fmt: skip
"""Counter keys by rank: a named global step wins over an iteration, which wins over a
within-epoch position (`cur_iter`, `Batch 10/126`); `steps`/`iters` (plural) and `count` only on a
line with a loss (`iters: 500, epoch: 18 | loss: 0.146`, `count: 50, loss:675.15`; `Total
optimization steps = 564` is a setting)."""
_ALIASES = {"learning_rate": "lr", "learningrate": "lr", "lr_0": "lr", "base_lr": "base_lr"}
_SPLIT = re.compile(r"'s\b|[_./@\s-]+")
_CLEAN = re.compile(r"'s\s+|[\s/\-.]+")
"""Word breaks; `training's l2` (LightGBM's round lines) is the training set's l2, `training_l2`."""
_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def uncamel(key: str) -> str:
    """`RPNLogLoss` → `RPN_Log_Loss`, `valLoss` → `val_Loss`: a CamelCase key's words apart, so
    they are judged as words. Only where every hump is a word of two letters or more: `mAP`,
    `mIoU`, `KL` stay whole."""
    if key.isupper() or key.islower() or not key.isascii():
        return key
    parts = _HUMP.split(key)
    if len(parts) < 2 or any(len(p.strip("_")) < 2 for p in parts):
        return key
    return "_".join(parts)


@lru_cache(maxsize=8192)
def words_of(name: str) -> tuple[str, ...]:
    """A key's words, lower case (`Train Loss` → train, loss; `RPNLogLoss` → rpn, log, loss;
    `validloss` → valid, loss: a set's word glued to `loss`; `cross entropy` → xent); cached:
    keys repeat."""
    words: list[str] = []
    for w in _SPLIT.split(uncamel(name).lower()):
        if w.endswith("loss") and (w[:-4] in EVAL_WORDS or w[:-4] in TRAIN_WORDS):
            words += (w[:-4], "loss")
        elif w == "entropy" and words and words[-1] == "cross":
            words[-1] = "xent"  # `Cross entropy`: the loss itself, as `xent` is
        elif w:
            words.append(w)
    return tuple(words)


@lru_cache(maxsize=8192)
def metric_name(key: str) -> str | None:
    """`key` normalised (`Train Loss` → `train_loss`, `learning rate` → `lr`), or None when it is
    not a metric a chart should show (speed, counters, a loss *scale*, file names)."""
    name = _CLEAN.sub("_", uncamel(key.strip()).lower()).strip("_")
    if not name or len(name) > 80 or not name.isprintable():
        return None  # a dict key with control characters never reaches the terminal
    name = _ALIASES.get(name, name)
    if name.endswith("learning_rate"):
        name = name[:-13] + "lr"
    words = words_of(name)
    if not words or any(w in BOOKKEEPING for w in words):
        return None
    if name in EPOCH_KEYS or name in STEP_KEYS:
        return None
    return name


@lru_cache(maxsize=8192)
def is_known(name: str) -> bool:
    """A metric word people print (`loss`, `acc`, `lr`, `ppl`, …) is in the name."""
    words = words_of(name)
    if any(w in _KNOWN or w.startswith(("acc", "loss")) or w.endswith("loss") for w in words):
        return True  # `closs`, `mlmloss`: a word ending in loss is one
    return name.endswith("grad_norm") or name.endswith("gnorm")


_METRIC_WORD = re.compile(
    r"(?:loss\w*|\w+loss|acc\d*|accu|accuracy|top\d+|ppl|perplexity|lr|f1|auc|mae|mse|rmse|wer"
    r"|cer|bleu|precision|recall|map|dice|iou|nll|kl|psnr|ssim|cost|xent)"
)


_MEASURE = re.compile(r"\b(?:acc\w*|top-?\d+|f1|auc|precision|recall|map|dice|iou|bleu|ssim)\b")


def measures_no_loss(line: str) -> bool:
    """The line names what its values measure, and no loss (`Class 0: Top-k Acc → Train: 1.000,
    Val: 1.000`): keys naming a data set there are that measure's, not the loss's."""
    low = line.lower()
    return "loss" not in low and _MEASURE.search(low) is not None


@lru_cache(maxsize=8192)
def is_metric_name(name: str) -> bool:
    """A series' name that says it is a metric people print, word for word (`loss`, `val_acc1`,
    `learning_rate` → `lr`, `grad_norm`): a series at its first point. Stricter than `is_known`
    (which reads a line's keys): `acc_debug_mode` is no accuracy."""
    return any(_METRIC_WORD.fullmatch(w) for w in words_of(name)) or (
        name.endswith("grad_norm") or name.endswith("gnorm")
    )


@lru_cache(maxsize=8192)
def is_eval(name: str) -> bool:
    return any(w in EVAL_WORDS for w in words_of(name))


@lru_cache(maxsize=8192)
def is_loss(name: str) -> bool:
    words = words_of(name)
    return any(w in _LOSS_WORDS or (w.endswith("loss") and w != "logloss") for w in words) and (
        not any(w in ("ppl", "perplexity", "acc", "accuracy") for w in words)
    )


@lru_cache(maxsize=8192)
def is_whole_loss(name: str) -> bool:
    """A loss with only qualifiers around it (`loss`, `train_loss`, `total_loss`, `Tot Loss`,
    `lm loss`, `train/loss_step`): the total, not one of its parts."""
    words = [w for w in words_of(name) if w not in _TOTAL_WORDS and w not in EVAL_WORDS]
    if len(words) == 1 and words[0].endswith("loss") and _SUMS.intersection(words_of(name)):
        return True  # `Dekrloss/total`: the total of a loss named by its kind
    return len(words) == 1 and words[0] in _LOSS_WORDS


def pick_loss(values: dict[str, float]) -> str | None:
    """The name of the training loss among a line's (non-evaluation) metrics: the whole loss
    with the fewest words, else the only loss, unless its name is numbered (`loss_x16`,
    `s0.loss_cls`, `pal1_conf_loss`: one of several outputs, heads or stages, printed one a
    line; which of them, if any, is the total the line cannot say) or names one model of a GAN."""
    whole = [n for n in values if not is_eval(n) and is_whole_loss(n)]
    if whole:  # `Average Loss 1.145 | Current Loss 1.145361`: the current one
        return min(whole, key=lambda n: (len(words_of(n)), _averaged(n), "train" in n))
    parts = [n for n in values if not is_eval(n) and is_loss(n)]
    if len(parts) == 1 and not any(c.isdigit() for c in parts[0]) and not _one_model(parts[0]):
        return parts[0]
    return None


_AVERAGED = frozenset({"avg", "average", "mean", "running", "smoothed", "ema"})


def _averaged(name: str) -> bool:
    """A running average of the loss (`Average Loss`, `avg_loss`): the line's current value,
    where it prints both, is the loss of the step."""
    return not _AVERAGED.isdisjoint(words_of(name))


_ADVERSARIES = frozenset({"g", "d", "gen", "generator", "dis", "disc", "discriminator"})
"""Words that name one model of an adversarial pair (a GAN's generator or discriminator)."""


def _one_model(name: str) -> bool:
    """`Gen Loss Total`, `g_loss`: the loss of one of a GAN's two models, each minimised by its own
    optimizer; the line's only loss, yet not the training's (there is none to plot as one)."""
    return not _ADVERSARIES.isdisjoint(words_of(name))


_ERRORS = frozenset({"mse", "rmse", "mae", "logloss", "mlogloss", "nll", "rmsle", "nloglik"})
"""Measures of error a trainer minimises, printed where no loss is (`train-rmse`, `mse`)."""


def pick_train_error(values: dict[str, float], training: bool) -> str | None:
    """Where a line prints no loss, the error it measures on the training set is the training
    loss: `[3]\ttrain-rmse:16.06` (gradient boosting's rounds), `[Training] mse = 2975.6`
    (`training`: the line's lead says so). Only one such measure: of several, none is *the*."""
    found = [n for n in values if not is_eval(n) and _is_train_error(n, training)]
    return found[0] if len(found) == 1 else None


def _is_train_error(name: str, training: bool) -> bool:
    words = words_of(name)
    return any(w in _ERRORS for w in words) and (training or any(w in TRAIN_WORDS for w in words))


def pick_val_loss(values: dict[str, float]) -> str | None:
    """The evaluation loss among a line's metrics: the whole one with the fewest words."""
    found = [n for n in values if is_eval(n) and is_whole_loss(n)]
    if found:
        return min(found, key=lambda n: len(words_of(n)))
    parts = [n for n in values if is_eval(n) and is_loss(n)]
    return parts[0] if len(parts) == 1 else None


def parts_total(values: dict[str, float]) -> float | None:
    """The sum of a table row's loss columns (what a trainer that prints only parts minimises).
    None where a part is an entropy's (`average_loss_entropy`): an entropy bonus enters the
    objective with a sign and a weight the row does not print, so no plain sum is its total."""
    parts = [n for n in values if not is_eval(n) and is_loss(n)]
    if len(parts) < 2 or any("entropy" in words_of(n) for n in parts):
        return None
    return math.fsum(values[n] for n in parts)


def terms_total(values: dict[str, float]) -> float | None:
    """The sum of a line's loss terms where its keys say they are the terms of the training
    loss, no total printed: every loss key is `train_loss_<term>` (`train_loss_itc`,
    `train_loss_itm`), two at least. Not `loss_disc, loss_gen` (the losses of two models, each
    minimised by its own optimizer: their sum is nothing's objective), nor `d_loss, g_loss`."""
    parts = [n for n in values if not is_eval(n) and is_loss(n)]
    if len(parts) < 2:
        return None
    for n in parts:
        words = words_of(n)
        if len(words) != 3 or words[0] not in TRAIN_WORDS or words[1] != "loss":
            return None
        if words[2] in _TOTAL_WORDS:
            return None
    return parts_total(values)


def trains(key: str) -> bool:
    """The key names the training set (`train`, `train loss`): measured on it, in an
    evaluation too (nanoGPT's `[eval] iter 0: train 9.8578 val 9.8535`)."""
    return any(w in TRAIN_WORDS for w in words_of(key))


def total_is_loss(values: dict[str, float], line: str, stepped: bool) -> bool:
    """A `total` is the training loss where it sums the line's parts (`G loss 0.1 D loss 0.2
    Total: 0.3`), follows a `Losses:` label, or is, beside a step, the line's one metric
    (`[epoch: 79/200, iter: 275/448] total: 1.005612`)."""
    if stepped and not set(values) - {"lr"}:
        return True
    return parts_total(values) is not None or _LOSSES.search(line) is not None


_LOSSES = re.compile(
    r"\blosse?s?\s*:\s*(?:[A-Za-z]\w*[ =:]+[-+]?[\d.]+(?:e[-+]?\d+)?\s*,\s*){2,}total\b",
    re.IGNORECASE,
)
"""`Losses: x 0.27, y 0.25, …, total 15.1`: the values after the label are the loss's parts."""


def finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


WIDE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
"""Chinese words or full-width punctuation: a log written in Chinese (`当前损失值：3.767`)."""
_CHINESE = (
    ("损失", "loss"), ("准确率", "acc"), ("正确率", "acc"), ("学习率", "lr"), ("训练", "train"),
    ("验证", "val"), ("测试", "test"), ("轮次", "epoch"), ("轮", "epoch"), ("迭代", "iter"),
    ("批次", "batch"), ("步", "step"), ("耗时", "time"), ("时间", "time"),
)  # fmt: skip
_FULL_WIDTH = str.maketrans("：，；（）［］｜　", ":,;()[]| ")


def in_english(line: str) -> str:
    """A line's metric words in Chinese as the English ones the parser reads (`当前损失值：3.767`
    is ` loss : 3.767`), full-width punctuation as ASCII, other Chinese words left out; a line
    with none of those words as it is (`num epochs / epoch数: 4`, a setting's name)."""
    if not any(word in line for word, _ in _CHINESE):
        return line
    for word, english in _CHINESE:
        line = line.replace(word, f" {english} ")
    return WIDE.sub("", line.translate(_FULL_WIDTH))
