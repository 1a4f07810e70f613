"""The house stays easy to change: what the product knows about a framework lives in that
framework's module (`tui/frameworks/`), and no module is too big to read in one sitting."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    p for d in ("tui", "screens", "widgets") for p in (ROOT / d).rglob("*.py") if p.is_file()
)
FRAMEWORK_WORDS = re.compile(
    r"tensorflow|deepspeed|torchrun|accelerate|lightning|horovod|TF_CONFIG", re.IGNORECASE
)
MOST_NAMING = 10
"""Modules outside the package that may name a framework (the spec's own fields, the CLI's
public words, judgments whose real-log evidence quotes one)."""
MOST_LINES = 450


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_few_modules_outside_the_framework_package_name_a_framework():
    naming = [
        _name(p)
        for p in SOURCES
        if not _name(p).startswith("tui/frameworks/")
        and FRAMEWORK_WORDS.search(p.read_text(encoding="utf-8"))
    ]
    assert len(naming) <= MOST_NAMING, naming


def test_no_module_is_too_big_to_read():
    big = {
        _name(p): n
        for p in SOURCES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert big == {}


def test_the_registry_lists_one_module_per_framework():
    from tui.frameworks import registry

    modules = {type(f).__module__ for f in registry.frameworks()}
    assert len(modules) == len(registry.frameworks()) == len(set(registry.names()))
    for framework in registry.frameworks():
        assert (ROOT / "presets" / "jobs" / f"{framework.example}.yaml").is_file(), framework.name
        assert (ROOT / "presets" / "scripts" / framework.sample_script).is_file(), framework.name


def test_every_framework_package_has_the_extra_that_installs_it():
    import tomllib

    from tui.frameworks import registry

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for framework in registry.frameworks():
        for package in framework.packages:
            assert package.extra in extras, (framework.name, package)
