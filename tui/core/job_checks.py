"""What the model alone does not refuse but a run would: a placeholder Azure ML refuses at submit,
a code folder or script missing on this machine. Preview, export and edit warn; submit stops."""

from __future__ import annotations

from pathlib import Path

from tui.core.spec import SCRIPT_FIX, JobSpec, framework_rules


def is_remote(path: str) -> bool:
    """A path Azure ML resolves itself (datastore, URL, git or ARM id), not one on this machine."""
    return "://" in path or path.startswith(("azureml:", "git+", "/subscriptions/"))


def placeholder(value: str | None) -> bool:
    """A value left as the example wrote it: '<your compute name>', 'Enter name here'."""
    return value is not None and ("<" in value or ">" in value or any(c.isspace() for c in value))


def submit_problems(spec: JobSpec) -> list[str]:
    """What Azure ML would refuse in `spec`; preview, export and edit only warn about these."""
    out = []
    if placeholder(spec.compute):
        out.append(
            f"compute: {spec.compute!r} is a placeholder, not a cluster name; set your cluster's "
            "name (`az ml compute list`), e.g. --set compute=gpu-cluster"
        )
    if isinstance(spec.environment, str) and placeholder(spec.environment):
        out.append(
            f"environment: {spec.environment!r} is a placeholder; name an environment, e.g. "
            "--set environment=azureml:AzureML-acpt-pytorch-2.2-cuda12.1@latest"
        )
    return out + framework_rules(spec.framework).submit_problems(spec)


def code_problems(spec: JobSpec, base: Path | None = None) -> tuple[str | None, str | None]:
    """(error, warning) about the code folder and script on this machine.

    The folder must exist (Azure ML uploads it); a script not found inside it is only a warning,
    since a command may create or fetch it.
    """
    if spec.code is None or is_remote(spec.code):
        return None, None
    folder = Path(base or Path.cwd(), spec.code)
    if not folder.is_dir():
        return (
            f"code: folder {spec.code!r} does not exist here ({folder}); create it or fix the path",
            None,
        )
    if spec.command is None and not script_inside(spec, base):
        return f"script: {spec.script} is outside the code folder; {SCRIPT_FIX}", None
    if spec.command is None and not (folder / spec.script).is_file():
        return None, f"script: {spec.script!r} is not in {spec.code!r} yet"
    return None, None


def script_inside(spec: JobSpec, base: Path | None = None) -> bool:
    """Whether the script lies inside the local code folder (only that folder is uploaded)."""
    if spec.code is None or is_remote(spec.code):
        return not Path(spec.script).is_absolute()
    folder = Path(base or Path.cwd(), spec.code).resolve()
    return Path(folder, spec.script).resolve().is_relative_to(folder)
