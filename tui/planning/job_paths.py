"""Local paths in a job file, as seen from another folder.

`az ml` resolves every local path in a job file (code, a conda file, a docker build context,
inputs and outputs) against the file's own folder, so a job read from one folder and written to
another has its paths moved; remote forms are kept as written. Both export and import use this.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tui.core.job_checks import is_remote


def moved_path(value: Any, src: Path | str | None, dest: Path | None) -> Any:
    """A local path written relative to `src` (None: this folder), as seen from `dest`.

    `az ml` resolves every local path in a job file against the file's folder; remote forms
    (azureml:, https://, wasbs://, git+…, ARM ids) are kept as written.
    """
    if not isinstance(value, str) or not value or is_remote(value):
        return value
    prefix = "file:" if value.startswith("file:") else ""
    path = value.removeprefix(prefix)
    if src is None and dest is None:
        return value
    where = Path(src or ".", path).resolve()
    return prefix + os.path.normpath(os.path.relpath(where, (dest or Path(".")).resolve()))


def paths_moved(job: dict[str, Any], src: Path | str | None, dest: Path | None) -> dict:
    """`job` with every local path it can hold moved from `src` to `dest` (see `moved_path`)."""
    out = dict(job)
    env = out.get("environment")
    if isinstance(env, dict):
        env = dict(env)
        if "conda_file" in env:
            env["conda_file"] = moved_path(env["conda_file"], src, dest)
        if isinstance(env.get("build"), dict):
            env["build"] = dict(env["build"], path=moved_path(env["build"].get("path"), src, dest))
        out["environment"] = env
    elif isinstance(env, str) and env.startswith("file:"):
        out["environment"] = moved_path(env, src, dest)
    for section in ("inputs", "outputs"):
        if isinstance(out.get(section), dict):
            out[section] = {
                k: dict(v, path=moved_path(v["path"], src, dest))
                if isinstance(v, dict) and "path" in v
                else v
                for k, v in out[section].items()
            }
    return out
