"""Pre-flight for a run on this machine: every problem that would stop it is found before any
process starts, with the exact command that fixes it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from tui.core.spec import JobSpec
from tui.planning.plan import Target, plan
from tui.planning.preflight import check_local, imported_modules, install_command, needed_modules
from tui.planning.presets import for_this_machine, get_preset, samples_dir


def local(spec: JobSpec):
    return plan(spec, Target.for_spec("local", spec))


def test_the_script_s_own_imports_decide_what_the_ranks_python_needs(tmp_path: Path):
    (tmp_path / "train.py").write_text(
        "import os\nimport tensorflow as tf\nfrom horovod import tensorflow\n"
    )
    spec = JobSpec(framework="horovod", code=str(tmp_path), script="train.py", sku=None)
    assert needed_modules(local(spec)) == ["tensorflow", "horovod"]
    # Each framework's rehearsal runs its own example, which imports the framework.
    tf = for_this_machine(JobSpec(framework="tensorflow", launch="per_node"), tmp_path / "none")
    assert tf.script == "train_tf_mwms.py"
    assert needed_modules(local(tf)) == ["tensorflow"]
    ps = JobSpec(framework="tensorflow", launch="per_node", parameter_servers=1)
    assert for_this_machine(ps, tmp_path / "none").script == "train_tf_ps.py"
    for framework, script in [
        ("lightning", "train_lightning.py"),
        ("huggingface", "train_hf.py"),
        ("deepspeed", "train_deepspeed.py"),
        ("horovod", "mpi_env_check.py"),  # labelled: Horovod does not build here
    ]:
        here = for_this_machine(JobSpec(framework=framework), tmp_path / "none")
        assert here.script == script, framework
        assert (samples_dir() / script).is_file()
    hvd = for_this_machine(JobSpec(framework="horovod"), tmp_path / "none")
    assert not [f for f in check_local(local(hvd)) if f.blocking]  # it starts, labelled
    torchrun = for_this_machine(get_preset("pytorch-torchrun").spec)
    assert needed_modules(local(torchrun)) == ["torch"]
    assert imported_modules("def broken(:\n") is None


def test_a_missing_framework_is_a_blocking_problem_with_the_install_command(tmp_path: Path):
    (tmp_path / "train.py").write_text("import lightning as L\n")
    spec = JobSpec(framework="lightning", code=str(tmp_path), sku=None, gpus_per_node=1, nodes=1)
    other = tmp_path / "bin" / "python"  # another environment's Python: the bare package
    other.parent.mkdir()
    other.symlink_to(sys.executable)
    (problem,) = [
        f for f in check_local(local(spec), python=str(other)) if "lightning" in f.problem
    ]
    assert problem.blocking
    assert problem.fix == f"{other} -m pip install lightning"
    # This environment's Python: dtrain-tui's extra (from its source folder when editable).
    assert install_command("lightning", sys.executable).endswith("[lightning]'")


def test_horovod_has_no_extra_and_the_pre_flight_says_what_it_needs(tmp_path: Path):
    # Horovod 0.28.1 from pip builds without its PyTorch ops beside torch 2.13: an extra that
    # installs it would be a trap, so the fix names what a working Horovod needs.
    (tmp_path / "train.py").write_text("import horovod.torch as hvd\n")  # never installed here
    spec = JobSpec(framework="horovod", code=str(tmp_path), sku=None, gpus_per_node=1, nodes=1)
    (problem,) = [f for f in check_local(local(spec)) if "horovod" in f.problem]
    assert problem.blocking
    for needed in ("torch < 2.1", "horovod==0.28.1", "HOROVOD_WITH_PYTORCH=1", "main branch"):
        assert needed in problem.fix
    assert "[horovod]" not in problem.fix


def test_script_outside_or_missing_from_the_code_folder(tmp_path: Path):
    (tmp_path / "code").mkdir()
    (tmp_path / "elsewhere.py").write_text("print(1)\n")
    # (`../elsewhere.py` is refused by JobSpec itself; a path written in full gets here.)
    spec = JobSpec(code=str(tmp_path / "code"), script=str(tmp_path / "elsewhere.py"), sku=None)
    (outside,) = [f for f in check_local(local(spec)) if f.problem.startswith("script:")]
    assert "outside the code folder" in outside.problem
    missing = spec.with_changes(script="train.py")
    (gone,) = [f for f in check_local(local(missing)) if f.problem.startswith("script:")]
    assert "is not in" in gone.problem and gone.blocking


def test_more_processes_than_cores_is_a_warning_only():
    spec = JobSpec(
        nodes=4, gpus_per_node=64, sku=None, code=str(samples_dir()), script="train_ddp.py"
    )
    warnings = [f for f in check_local(local(spec)) if not f.blocking]
    assert any("256 processes" in f.problem for f in warnings)


def _venv_without_torch(tmp_path: Path) -> Path:
    """A real virtual environment with everything dtrain-tui's has, except torch."""
    root = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = Path(sysconfig.get_paths()["purelib"])
    (target,) = root.glob("lib/python*/site-packages")
    for entry in site.iterdir():
        if not entry.name.startswith(("torch", "functorch")):
            (target / entry.name).symlink_to(entry)
    return root / "bin" / "python"


def test_submit_without_torch_exits_2_before_any_process_starts(tmp_path: Path):
    python = _venv_without_torch(tmp_path)
    home = tmp_path / "home"
    run = subprocess.run(
        [str(python), "-m", "tui", "submit", "--preset", "pytorch-ddp",
         "--set", "sku=", "--set", "gpus_per_node=2"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env=os.environ | {"DTRAIN_TUI_HOME": str(home)},
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    (line,) = [x for x in run.stderr.splitlines() if x.startswith("dtrain-tui: error:")]
    assert "torch is not installed in venv/bin/python" in line
    assert "fix: venv/bin/python -m pip install" in line and "torch" in line.split("fix:")[1]
    assert not (home / "state" / "jobs").exists() or not any((home / "state" / "jobs").iterdir())
