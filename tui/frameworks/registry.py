"""Every framework dtrain-tui knows, in the order the wizard lists them.

Adding one: a module in this package defining a `Framework` subclass, one line in `_ALL` (and
its name, title and tagline in `tui.core.framework_list.LISTED`, which the first screen lists and
the model checks names against; a test compares them), and its example preset in
`presets/jobs/` (see the README's architecture section).
"""

from __future__ import annotations

from functools import cache

from tui.core.framework_list import use_frameworks
from tui.frameworks.base import Framework, Launcher
from tui.frameworks.deepspeed import DeepSpeed
from tui.frameworks.horovod import Horovod
from tui.frameworks.huggingface import HuggingFace
from tui.frameworks.lightning import Lightning
from tui.frameworks.pytorch import PyTorch
from tui.frameworks.tensorflow import TensorFlow

_ALL: tuple[Framework, ...] = (
    PyTorch(),
    Lightning(),
    HuggingFace(),
    DeepSpeed(),
    TensorFlow(),
    Horovod(),
)


use_frameworks(_ALL)  # the model validates jobs with these rules, importing no framework


def frameworks() -> tuple[Framework, ...]:
    return _ALL


@cache
def _by_name() -> dict[str, Framework]:
    return {f.name: f for f in _ALL}


def names() -> tuple[str, ...]:
    return tuple(f.name for f in _ALL)


def get(name: str) -> Framework:
    """The framework called `name` (KeyError for an unknown one; the spec refuses those)."""
    return _by_name()[name]


def titles() -> dict[str, str]:
    return {f.name: f.title for f in _ALL}


def distributions() -> dict[str, str]:
    """Every Azure ML distribution type a framework's job uses → azure-ai-ml's class."""
    return {kind: cls for f in _ALL for kind, cls in f.distributions.items()}


def launchers() -> tuple[Launcher, ...]:
    """Every framework's launchers, without repeats, in the order they are looked for."""
    return tuple(dict.fromkeys(launcher for f in _ALL for launcher in f.launchers))


def launcher(name: str | None) -> Launcher | None:
    """The launcher called `name`, if any."""
    return next((x for x in launchers() if x.name == name), None)


def detect_launcher(command: str) -> Launcher | None:
    """The per-node launcher a command the user wrote runs, if any."""
    return next((x for x in launchers() if x.detect and x.detect.search(command)), None)


def guess(distribution: str, command: str) -> str:
    """The framework an imported job most likely uses, from its distribution and command."""
    for f in sorted(_ALL, key=lambda f: f.guess_order):
        if f.recognises(distribution, command):
            return f.name
    return _ALL[0].name
