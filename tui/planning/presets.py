"""Job presets: the ones shipped in `presets/jobs/` and the user's own in the config dir.

A preset file is YAML with a `title`, a `note` that teaches what the preset shows, and a `spec`
mapping of JobSpec fields. `code: "{samples}"` points at the sample training scripts shipped in
`presets/scripts/`, so shipped presets run on this machine as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import ValidationError

from tui.core.answers import friendly
from tui.core.dirs import config_dir
from tui.core.job_checks import is_remote
from tui.core.spec import JobSpec

SAMPLES = "{samples}"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")


class PresetProblem(ValueError):
    """A preset that cannot be used; the message names the preset and what is wrong."""


@dataclass(frozen=True)
class Preset:
    """A named JobSpec with a note that explains it."""

    name: str
    title: str
    note: str
    spec: JobSpec
    source: Literal["shipped", "user"]
    path: Path


def samples_dir() -> Path:
    """The shipped sample training scripts (a real folder once the package is installed)."""
    return Path(str(resources.files("presets").joinpath("scripts")))


def user_presets_dir() -> Path:
    return config_dir() / "presets"


def spec_from_mapping(data: Any, where: str) -> JobSpec:
    """A JobSpec from preset/spec-file fields; problems raise PresetProblem naming `where`."""
    if not isinstance(data, dict):
        raise PresetProblem(f"{where}: expected a mapping of job fields")
    fields = dict(data)
    if fields.get("code") == SAMPLES:
        fields["code"] = str(samples_dir())
    if isinstance(fields.get("args"), str):
        from tui.core.answers import parse_args

        fields["args"] = parse_args(fields["args"])
    try:
        return JobSpec.model_validate(fields)
    except ValidationError as err:
        raise PresetProblem(f"{where}: {friendly(err)}") from None


def _load(path: Path, source: Literal["shipped", "user"]) -> Preset:
    from tui.core.reading import InputProblem, read_yaml

    try:
        data = read_yaml(path)
    except InputProblem as err:  # one line: the file, and the line and column at fault
        raise PresetProblem(f"preset {path.stem}: {err}") from None
    if not isinstance(data, dict) or "spec" not in data:
        raise PresetProblem(f"preset {path.stem} ({path}): expected `title`, `note` and `spec`")
    spec = spec_from_mapping(data["spec"], f"preset {path.stem}")
    return Preset(
        path.stem,
        str(data.get("title") or path.stem),
        str(data.get("note") or "").strip(),
        spec,
        source,
        path,
    )


def _files() -> list[tuple[Path, Literal["shipped", "user"]]]:
    shipped = Path(str(resources.files("presets").joinpath("jobs")))
    files: list[tuple[Path, Literal["shipped", "user"]]] = [
        (p, "shipped") for p in sorted(shipped.glob("*.yaml"))
    ]
    user = user_presets_dir()
    if user.is_dir():
        files += [(p, "user") for p in sorted(user.glob("*.yaml"))]
    return files


def load_presets() -> tuple[list[Preset], list[str]]:
    """Every preset that loads, and one line per preset file that does not (never fatal).

    A user preset with a shipped preset's name replaces it.
    """
    found: dict[str, Preset] = {}
    problems: list[str] = []
    for path, source in _files():
        try:
            found[path.stem] = _load(path, source)
        except PresetProblem as err:
            problems.append(str(err))
    return list(found.values()), problems


def get_preset(name: str) -> Preset:
    for path, source in reversed(_files()):
        if path.stem == name:
            return _load(path, source)
    known = ", ".join(sorted({p.stem for p, _ in _files()}))
    raise PresetProblem(f"preset {name!r} not found; known presets: {known}")


def save_preset(
    name: str, spec: JobSpec, title: str = "", note: str = "", base: Path | None = None
) -> Path:
    """Write `spec` as a user preset; returns the file. Only non-default fields are stored,
    and the code folder, made absolute from `base` (default: the current folder)."""
    if not _NAME.match(name):
        raise PresetProblem(
            f"preset name {name!r}: use lower-case letters, digits, - and _ (e.g. my-ddp-job)"
        )
    fields = spec.model_dump(mode="json", exclude_defaults=True)
    if spec.code is not None and not is_remote(spec.code):
        # A folder here is stored absolute (the default "." too): the preset then opens the
        # same code from any folder, not whatever `.` is where it is opened.
        code = Path(base or Path.cwd(), spec.code).resolve()
        fields["code"] = SAMPLES if code == samples_dir().resolve() else str(code)
    if "args" in fields:
        fields["args"] = list(fields["args"])
    from tui.core.files import PRIVATE, PUBLIC, holds_secrets, write_atomic

    path = user_presets_dir() / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"title": title or name, "note": note, "spec": fields}
    text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True)
    write_atomic(path, text, PRIVATE if holds_secrets(spec.env) else PUBLIC)
    return path


REHEARSAL = {"nodes": 2, "gpus_per_node": 2, "sku": None}
"""What "this machine" means: 2 simulated nodes × 2 processes, no VM size to cap the counts."""


def runs_here(spec: JobSpec, base: Path | None = None) -> bool:
    """Whether the spec's script is on this machine (a job that names none runs its command)."""
    from tui.core.job_checks import is_remote

    if spec.command is not None:
        return True
    if spec.code is not None and is_remote(spec.code):
        return False
    return Path(base or Path.cwd(), spec.code or ".", spec.script).is_file()


def for_this_machine(spec: JobSpec, base: Path | None = None, *, counts: bool = True) -> JobSpec:
    """`spec` made to run here: 2 nodes × 2 processes (unless `counts` is False: the user's
    own, e.g. after switching framework), no VM size; when the spec's script is not on this
    machine, the training script of the user's code folder if it holds Python files (train*.py,
    main.py, the only one; else the name stays, for the Code step to question), otherwise the
    framework's sample."""
    from tui.frameworks import registry

    changes: dict[str, Any] = dict(REHEARSAL) if counts else {"sku": None}
    example = registry.get(spec.framework).for_this_machine(spec)  # its script, and options
    if not runs_here(spec, base):
        mine = own_scripts(spec, base)
        if mine is not None:  # the user's own code folder: stay in it
            if guess := _likely_script(mine):
                changes["script"] = guess
        elif example:
            changes |= {"code": str(samples_dir()), "command": None, **example}
    return spec.with_changes(**changes)


def runs_example(spec: JobSpec) -> bool:
    """Whether `spec` runs its framework's shipped example: a script the app chose (an example,
    "this machine"), not one the user typed, so it follows the framework (`follow_example`)."""
    from tui.frameworks import registry

    if spec.command is not None or spec.code is None:
        return False
    try:
        shipped = Path(spec.code).resolve() == samples_dir().resolve()
    except OSError:
        return False
    example = registry.get(spec.framework).for_this_machine(spec)
    return shipped and example.get("script") == spec.script


def follow_example(before: JobSpec, after: JobSpec) -> JobSpec:
    """`after`, which is `before` switched to another framework, running the new framework's
    example when `before` ran the old one's; the arguments go with the example they were
    chosen for. Anything else (a script the user typed) stays as it is."""
    from tui.frameworks import registry

    if after.framework == before.framework or not runs_example(before):
        return after
    old = registry.get(before.framework).for_this_machine(before.with_changes(args=()))
    bare = after.with_changes(args=()) if before.args == old.get("args", ()) else after
    example = registry.get(after.framework).for_this_machine(bare)
    if not example:  # a framework without an example keeps what there was
        return after
    return bare.with_changes(code=str(samples_dir()), **example)


def own_scripts(spec: JobSpec, base: Path | None = None) -> list[str] | None:
    """The Python files in the spec's code folder when it is the user's own (on this machine,
    not the shipped samples, holding some), else None."""
    from tui.core.job_checks import is_remote

    if spec.command is not None or (spec.code is not None and is_remote(spec.code)):
        return None
    folder = Path(base or Path.cwd(), spec.code or ".")
    try:
        if folder.resolve() == samples_dir().resolve():
            return None
        found = sorted(p.name for p in folder.glob("*.py") if p.is_file())
    except OSError:
        return None
    return found or None


def _likely_script(names: list[str]) -> str | None:
    """The training script among `names`: train*.py, else main.py, else the only one."""
    for name in names:
        if name.startswith("train"):
            return name
    if "main.py" in names:
        return "main.py"
    return names[0] if len(names) == 1 else None
