"""Hostile input, round three (issue 34), on the way a job is previewed and exported.

A job file's keys are data: none becomes code in the Python export, whichever mapping holds it.
Without --force an export creates its file or fails, even racing another; `export -o -` writes
the job as UTF-8 whatever stdout's encoding, and its warnings on stderr; a killed export's
temporary file goes at the next write; a count of 0 is refused naming its field; YAML on an
80-column terminal is shown whole.
"""

from __future__ import annotations

import ast
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.hostile.probes import ROOT, run_cli
from tui.cli import main
from tui.core.files import atomic_file, remove_stale_temps, write_atomic
from tui.planning import export as export_module
from tui.planning.job_import import load_job_file
from tui.planning.plan import plan
from tui.planning.sdk import Call, is_name, to_python

DATA = Path(__file__).parent / "data"
HOSTILE = "x=__import__('os').system('touch PWNED'),y"

# Where a job file may hold a key of its own, each as the export reads it back.
PLACES = {
    "top level": lambda job: job.update({HOSTILE: 1}),
    "resources": lambda job: job["resources"].update({HOSTILE: 1}),
    "environment": lambda job: job.update(
        {"environment": {"image": "mcr.microsoft.com/azureml/curated/acpt:1", HOSTILE: 1}}
    ),
    "distribution": lambda job: job["distribution"].update({HOSTILE: 1}),
    "services": lambda job: job.update(
        {"services": {"tb": {"type": "tensor_board", HOSTILE: 1}, "x": {"type": "?", HOSTILE: 1}}}
    ),
    "identity": lambda job: job.update({"identity": {"type": "managed", HOSTILE: 1}}),
    "inputs": lambda job: job["inputs"]["cifar"].update({HOSTILE: 1}),
    "inputs' names": lambda job: job["inputs"].update({HOSTILE: 1}),
    "outputs": lambda job: job.update({"outputs": {"model": {"type": "uri_folder", HOSTILE: 1}}}),
    "limits": lambda job: job.update({"limits": {"timeout": 60, HOSTILE: 1}}),
    "queue_settings": lambda job: job.update({"queue_settings": {HOSTILE: 1}}),
}
CALLS = {  # every call the exported file may make; the job file adds none
    "command",
    "Input",
    "Output",
    "Environment",
    "PyTorchDistribution",
    "JobResourceConfiguration",
    "TensorBoardJobService",
    "JobService",
    "ManagedIdentityConfiguration",
    "MLClient.from_config",
    "DefaultAzureCredential",
    "ml_client.jobs.create_or_update",
    "print",
}


def _hostile_job(folder: Path, place: str) -> Path:
    job = yaml.safe_load((DATA / "cifar_job.yml").read_text())
    PLACES[place](job)
    path = folder / "job.yml"
    path.write_text(yaml.safe_dump(job, sort_keys=False), encoding="utf-8")
    return path


def _assert_keys_stay_data(code: str) -> None:
    tree = ast.parse(code)
    calls = {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert calls <= CALLS, f"the job file made calls: {calls - CALLS}\n{code}"
    keys = [
        key.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for key in node.keys
        if isinstance(key, ast.Constant)
    ]
    assert HOSTILE in keys, f"the key was lost, not kept as data\n{code}"


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_job_files_keys_never_become_code_in_the_python_export(
    tmp_path, monkeypatch, capsys, place
) -> None:
    monkeypatch.chdir(tmp_path)
    path = _hostile_job(tmp_path, place)
    # export --format sdk
    assert main(["export", "--job", str(path), "--format", "sdk", "-o", "job.py"]) == 0
    _assert_keys_stay_data((tmp_path / "job.py").read_text(encoding="utf-8"))
    # preview --show sdk: the Python part of what it prints
    capsys.readouterr()
    assert main(["preview", "--job", str(path), "--show", "sdk", "--offline"]) == 0
    shown = capsys.readouterr().out
    start = shown.index('"""')
    end = shown.index("print(submitted.name, submitted.studio_url)\n", start)
    _assert_keys_stay_data(shown[start:end] + "print(submitted.name, submitted.studio_url)\n")
    # the review's Python tab
    _assert_keys_stay_data(to_python(plan(load_job_file(path))))
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize(
    "key", ["class", "None", "__debug__", "ｃommand", "two words", "a-b", "", "1x", 1, None]
)
def test_any_key_that_is_not_a_plain_name_is_passed_as_data(key) -> None:
    assert not is_name(key)
    code = repr(Call("command", "azure.ai.ml", {"name": "n", key: 1, "tags": {key: 2}}))
    tree = ast.parse(code, mode="eval")
    assert isinstance(tree.body, ast.Call)
    assert [k.arg for k in tree.body.keywords] == ["name", None, "tags"]  # None: **{…}
    assert ast.literal_eval(tree.body.keywords[1].value) == {key: 1}


def test_plain_names_are_written_as_they_were(tmp_path) -> None:
    assert all(map(is_name, ["name", "process_count_per_instance", "ñandú", "match", "_"]))
    job = load_job_file(DATA / "cifar_job.yml")
    assert "**{" not in to_python(plan(job))


def test_fields_that_are_not_mappings_are_passed_as_written(tmp_path) -> None:
    """`limits: 5` was a traceback; `queue_settings: ["ab"]` became the argument `a='b'`."""
    job = yaml.safe_load((DATA / "cifar_job.yml").read_text())
    job |= {"limits": 5, "identity": 3, "services": {"tb": 5}, "queue_settings": ["ab"]}
    (tmp_path / "job.yml").write_text(yaml.safe_dump(job), encoding="utf-8")
    code = to_python(plan(load_job_file(tmp_path / "job.yml")))
    for argument in ("limits=5", "identity=3", "services={'tb': 5}", "queue_settings=['ab']"):
        assert f"    {argument},\n" in code
    ast.parse(code)


# ---- 8 · two exports of one new file at once ------------------------------------------------


def test_an_exclusive_write_fails_when_the_file_appears_while_it_writes(tmp_path) -> None:
    target = tmp_path / "job.yml"
    with pytest.raises(FileExistsError), atomic_file(target, exclusive=True) as f:
        f.write("first")
        write_atomic(target, "second", exclusive=True)  # another export finishes meanwhile
    assert target.read_text() == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.yml"]


def test_two_exports_of_a_new_file_at_once_one_writes_the_other_says_so(
    tmp_path, monkeypatch, capsys
) -> None:
    """The second export runs whole while the first is writing (past its check that the file
    does not exist): without --force, the first must not replace what the second wrote."""
    target = str(tmp_path / "job.yml")
    real_to_yaml, codes = export_module.to_yaml, []

    def to_yaml_racing(p, out_dir=None):
        if not codes:  # only inside the first export
            codes.append(None)
            codes.append(main(["export", "--set", "nodes=3", "-o", target]))
        return real_to_yaml(p, out_dir)

    monkeypatch.setattr(export_module, "to_yaml", to_yaml_racing)
    first = main(["export", "--set", "nodes=1", "-o", target])
    out = capsys.readouterr()
    assert (codes[1], first) == (0, 2), out
    assert out.out.count("wrote ") == 1 and "3 nodes" in out.out
    assert out.err.strip() == f"dtrain-tui: error: {target} exists; add --force to replace it"
    assert yaml.safe_load(Path(target).read_text())["resources"]["instance_count"] == 3


# ---- 9, 20 · export -o - -------------------------------------------------------------------

C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


@pytest.mark.parametrize("fmt", ["yaml", "sdk", "json"])
def test_export_to_a_stdout_that_is_not_utf8_writes_the_job_unchanged(tmp_path, fmt) -> None:
    (tmp_path / "job.yml").write_text(
        'command: python train.py --name "—ñ café"\nenvironment: azureml:x@latest\n',
        encoding="utf-8",
    )
    for env in (C_LOCALE, {"PYTHONIOENCODING": "ascii"}):
        out = run_cli(
            "export", "--job", "job.yml", "--format", fmt, "-o", "-", cwd=tmp_path, env=env
        )
        assert out.rc == 0, out.stderr
        assert '--name \\"—ñ café\\"'.encode() in out.stdout or '"—ñ café"'.encode() in out.stdout
        assert b"-n cafe" not in out.stdout
        out.stdout.decode("utf-8")  # all of it UTF-8, the summary's `×` too


def test_export_to_stdout_says_the_plans_warnings_on_stderr(tmp_path, capsys) -> None:
    args = ["export", "--preset", "pytorch-ddp", "--set", "sku=Standard_Made_Up"]
    assert main([*args, "-o", str(tmp_path / "job.yml")]) == 0
    to_file = capsys.readouterr().err
    assert "warning: sku: Standard_Made_Up is not in dtrain-tui's table" in to_file
    assert main([*args, "-o", "-"]) == 0
    out = capsys.readouterr()
    assert out.err == to_file
    assert "warning" not in out.out and yaml.safe_load(out.out)["command"]


# ---- 17 · a killed export's temporary file --------------------------------------------------

_KILLED_WRITER = """
import os, signal, sys
from tui.core.files import atomic_file
writing = atomic_file(sys.argv[1])
f = writing.__enter__()
f.write("half a job\\n" * 100000)
f.flush()
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_next_export_removes_what_a_killed_one_left(tmp_path) -> None:
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER, "job.yml"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert killed.returncode == -signal.SIGKILL
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".job.yml."), left  # hidden, 1.1 MB
    out = run_cli("export", "-o", "job.yml", cwd=tmp_path)
    assert out.rc == 0, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.yml"]


def test_a_live_writers_file_is_kept_and_an_hour_old_one_is_not(tmp_path) -> None:
    mine = tmp_path / f".job.yml.dtrain-tmp-{os.getpid()}-abcdefgh"  # this process: alive
    old = tmp_path / f".job.yml.dtrain-tmp-{os.getpid()}-ijklmnop"
    other = tmp_path / ".other.yml.dtrain-tmp-1-qrstuvwx"  # another file's: not ours to judge
    for path in (mine, old, other):
        path.write_text("partial")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    assert remove_stale_temps(tmp_path / "job.yml") == [old.name]
    assert mine.exists() and other.exists()


# ---- 19 · a count of 0 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dist", "field"),
    [
        ("{type: pytorch, process_count_per_instance: 0}", "process_count_per_instance"),
        ("{type: mpi, process_count_per_instance: 0}", "process_count_per_instance"),
        ("{type: tensorflow, worker_count: 0}", "worker_count"),
        ("{type: tensorflow, worker_count: -1}", "worker_count"),
    ],
)
def test_a_count_of_zero_is_refused_naming_its_field(tmp_path, capsys, dist, field) -> None:
    path = tmp_path / "job.yml"
    path.write_text(f"command: python train.py\nenvironment: azureml:x@1\ndistribution: {dist}\n")
    for argv in (["preview", "--offline"], ["export", "-o", str(tmp_path / "out.yml")]):
        assert main([*argv, "--job", str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"distribution.{field}: " in err[0], err
    assert not (tmp_path / "out.yml").exists()


def test_a_parameter_server_count_of_zero_still_means_none(tmp_path, capsys) -> None:
    path = tmp_path / "job.yml"
    path.write_text(
        "command: python train.py\nenvironment: azureml:x@1\n"
        "distribution: {type: tensorflow, parameter_server_count: 0}\n"
    )
    assert main(["preview", "--offline", "--job", str(path)]) == 0


# ---- 22 · YAML on an 80-column terminal -----------------------------------------------------

_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")


def test_yaml_on_an_80_column_terminal_shows_every_line_whole(tmp_path) -> None:
    long = " ".join(f"--argument-{i} value-{i}" for i in range(12))
    (tmp_path / "job.yml").write_text(
        f"command: python train.py {long}\nenvironment: azureml:x@latest\n", encoding="utf-8"
    )
    piped = run_cli("export", "--job", "job.yml", "-o", "-", cwd=tmp_path)
    assert piped.rc == 0, piped.stderr
    expected = [line for line in piped.stdout.decode().splitlines() if len(line) > 80]
    assert expected, "the job should have lines longer than the terminal"
    for show in ("yaml", "all"):
        out = run_cli(
            "preview", "--job", "job.yml", "--show", show, "--offline",
            cwd=tmp_path, tty=True, env={"COLUMNS": "80", "LINES": "24"},
        )  # fmt: skip
        assert out.rc == 0, out.stderr
        screen = _ESCAPES.sub("", out.stdout.decode().replace("\r\n", "\n")).splitlines()
        for line in expected:
            assert line in screen, f"--show {show}: {line!r} not shown whole"
