"""Hostile input, round three (issue 34, items 10-16, 18, 21): damaged files nested past the
parser's depth, hundreds of metric series at a low descriptor limit, a locale without UTF-8,
a running job's folder deleted, a burst of a log under `submit --wait`, script arguments that
look like a launcher's, and a price too small for cents. Each asserts what the user sees.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pytest

from tests.backends.conftest import BIN, SCRIPTS, local_plan, running, started_pids
from tests.hostile.probes import ROOT, run_cli
from tui.backends.azureml.workspace import REMEMBERED, remembered
from tui.backends.local import LocalBackend
from tui.backends.local.launch import build_launches
from tui.core import prices
from tui.core.dirs import cache_dir, config_dir
from tui.core.spec import JobSpec
from tui.planning.plan import Target, plan
from tui.planning.presets import get_preset

DEEP = "[" * 100_000 + "]" * 100_000
"""Valid JSON nested far past Python's recursion limit: json.loads raises RecursionError."""
LOCAL = ["--target", "local", "--set", "sku=", "--set", "nodes=1", "--set", "gpus_per_node=1"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path / "home"))
    """This test's DTRAIN_TUI_HOME, where a probe it starts looks too."""
    return tmp_path / "home"


def _one_line_refusal(out) -> None:
    assert "Traceback" not in out.stderr and "RecursionError" not in out.stderr, out.stderr
    assert out.rc == 2 and len(out.err_lines) == 1, out.stderr


# ---- 10, 11: files nested deeper than the parser goes -----------------------------------------


def test_a_deeply_nested_remembered_workspace_is_forgotten_like_any_damaged_one(tmp_path):
    path = config_dir() / REMEMBERED
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(DEEP)
    assert remembered() == {}
    out = run_cli("jobs", "--target", "azure", cwd=tmp_path)
    _one_line_refusal(out)
    assert "no Azure ML workspace configured" in out.stderr


def test_a_deeply_nested_config_json_is_one_line(tmp_path):
    (tmp_path / "config.json").write_text(DEEP)
    out = run_cli("jobs", "--target", "azure", cwd=tmp_path)
    _one_line_refusal(out)
    assert "config.json: not valid JSON" in out.stderr


def test_a_deeply_nested_price_cache_is_ignored_and_the_snapshot_priced(tmp_path):
    path = cache_dir() / prices.CACHE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"fetched": "2026-11-20T00:00:00+00:00", "prices": ' + DEEP + "}")
    out = run_cli("preview", "--preset", "pytorch-ddp", cwd=tmp_path)
    assert out.rc == 0 and "Traceback" not in out.stderr, out.stderr
    assert b"$54.39/h dedicated" in out.stdout and b"2026-11-09 snapshot" in out.stdout


def test_a_deeply_nested_api_answer_is_refused_in_one_line():
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=('{"Items": ' + DEEP + "}").encode())

    client = httpx.Client(transport=httpx.MockTransport(answer))
    done = prices.refresh(client, url=prices.API_URL)
    assert not done.ok and "answer was malformed (not JSON)" in done.message


# ---- 12: many series, few descriptors ----------------------------------------------------------


def test_metrics_json_prints_400_series_at_a_64_descriptor_limit(tmp_path):
    """Per-layer gradient norms: a series each. Before, three spool files a series stayed open
    (340 series reached the usual 1,024 descriptors)."""
    series = 400
    lines = [
        f"step {s} - layer{i}_grad_norm: {s + i / 1000:.4f}"
        for s in range(1, 4)
        for i in range(series)
    ]
    (tmp_path / "train.log").write_text("\n".join(lines) + "\n")
    few = ["sh", "-c", 'ulimit -n 64 && exec "$@"', "probe"]
    out = run_cli("metrics", "train.log", "--format", "json", cwd=tmp_path, wrap=few)
    assert out.rc == 0, out.stderr
    found = json.loads(out.stdout)["series"]
    assert len(found) == series
    assert found["layer399_grad_norm"]["step"] == [1, 2, 3]
    assert found["layer399_grad_norm"]["value"] == [1.399, 2.399, 3.399]


# ---- 13, 14: a POSIX locale without UTF-8 mode -------------------------------------------------


def _c_locale(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """`dtrain-tui ARGS` as a user with LC_ALL=C and no UTF-8 mode runs it: Python decodes argv
    and the environment as ASCII (other bytes as lone surrogates) and names files in ASCII."""
    skip = ("PYTHONIOENCODING", "PYTHONUTF8", "PYTHONCOERCECLOCALE", "LANG", "LANGUAGE")
    env = {k: v for k, v in os.environ.items() if k not in skip and not k.startswith("LC_")}
    env |= {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "tui", *args]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, timeout=120)


SHOW = "import os, sys\nprint('X', os.environb[b'X'], [os.fsencode(a) for a in sys.argv[1:]])\n"


def test_non_ascii_env_and_arguments_reach_the_ranks_in_the_c_locale(tmp_path):
    """Before, the supervisor died encoding them in ASCII, and the job blamed "its supervisor"."""
    (tmp_path / "code").mkdir()
    (tmp_path / "code/show.py").write_text(SHOW)
    spec = {
        "nodes": 1, "gpus_per_node": 1, "sku": None, "code": str(tmp_path / "code"),
        "script": "show.py", "args": ["--name", "é"], "env": {"X": "ñ"},
    }  # fmt: skip
    (tmp_path / "spec.yml").write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
    out = _c_locale("submit", "--wait", "--spec", "spec.yml", *LOCAL, cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    assert b": Completed" in out.stderr
    assert b"X b'\\xc3\\xb1' [b'--name', b'\\xc3\\xa9']" in out.stdout  # UTF-8, byte for byte


def test_valid_utf8_on_the_command_line_is_taken_in_the_c_locale(tmp_path):
    out = _c_locale("export", "-o", "job.yml", "--set", "env.X=ñ", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    assert "X: ñ" in (tmp_path / "job.yml").read_text(encoding="utf-8")
    bad = _c_locale("export", "-o", "bad.yml", "--set", os.fsdecode(b"env.X=a\xff"), cwd=tmp_path)
    assert bad.returncode == 2  # bytes that are not UTF-8 are still refused, in one line
    assert bad.stderr.decode() == (
        "dtrain-tui: error: --set env.X: not valid UTF-8 (byte 0xff at character 2)\n"
    )


def test_a_non_ascii_code_folder_in_the_c_locale_is_one_line_with_the_fix(tmp_path):
    """A job file's `code: données` cannot be named in ASCII: say so, not a traceback."""
    (tmp_path / "données").mkdir()
    (tmp_path / "données/train.py").write_text("print('hi')\n")
    made = run_cli("export", "-o", "job.yml", "--set", "code=données", cwd=tmp_path)
    assert made.rc == 0, made.stderr
    out = _c_locale("check", "--job", "job.yml", cwd=tmp_path)
    err = out.stderr.decode()
    assert out.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "this locale cannot name '\\xe9'" in err and "PYTHONUTF8=1" in err


# ---- 15: a running job's folder deleted --------------------------------------------------------


@pytest.mark.slow
def test_a_running_job_whose_folder_is_deleted_is_stopped(tmp_path):
    """Nobody can cancel it any more (`cancel` finds no such job): its supervisor stops it."""
    backend = LocalBackend(tmp_path / "jobs", gpus=[], grace=2.0)
    spec = JobSpec(
        nodes=1, gpus_per_node=2, sku=None, code=str(SCRIPTS), script="ranks.py",
        args=("--seconds", "600"),
    )  # fmt: skip
    job = backend.submit(local_plan(spec))
    procs = started_pids(Path(job.location), 2)
    try:
        shutil.rmtree(job.location)
        deadline = time.monotonic() + 60  # a ceiling, not a timing: they beat for 600 s
        while any(map(running, procs.values())) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [p.pid for p in procs.values() if running(p)] == []
        assert not Path(job.location).exists()  # stopping it wrote nothing back
    finally:
        for proc in procs.values():
            if running(proc):
                proc.kill()


# ---- 16: a burst of log under `submit --wait` --------------------------------------------------


def test_a_local_job_runs_with_a_relative_dtrain_tui_home(tmp_path):
    """Found on the way: the supervisor runs in the job's folder, where a relative root named
    nothing (every job failed at its start, blaming "its supervisor")."""
    (tmp_path / "code").mkdir()
    (tmp_path / "code/hello.py").write_text("print('hello from rank 0')\n")
    args = ["submit", "--wait", "--set", "code=code", "--set", "script=hello.py", *LOCAL]
    out = run_cli(*args, cwd=tmp_path, env={"DTRAIN_TUI_HOME": "home"}, ceiling=60)
    assert out.rc == 0 and ": Completed" in out.stderr, out.stderr
    assert b"hello from rank 0" in out.stdout


@pytest.mark.slow
def test_submit_wait_copies_a_256_mb_burst_in_bounded_memory(home, tmp_path):
    """The rank's log grows by 256 MB at once (a sparse stretch of NULs: no disk to write);
    before, it was read in one piece (about 300 MB resident), now a megabyte at a time."""
    (tmp_path / "code").mkdir()
    burst = "import os\nos.ftruncate(1, 256 << 20)\n"  # fd 1 is the rank log
    (tmp_path / "code/burst.py").write_text(burst)
    quiet = ["sh", "-c", '"$@" > /dev/null', "probe"]
    args = ["submit", "--wait", "--set", "code=code", "--set", "script=burst.py", *LOCAL]
    out = run_cli(*args, cwd=tmp_path, wrap=quiet, ceiling=120)
    assert out.rc == 0 and "Completed" in out.stderr, out.stderr
    (log,) = home.glob("state/jobs/*/user_logs/std_log_process_0.txt")
    assert log.stat().st_size == 256 << 20
    assert out.peak_mb < 128, f"{out.peak_mb:.0f} MB"


# ---- 18: script arguments that look like accelerate's ------------------------------------------


@pytest.mark.parametrize("args", [("-t", "5"), ("--tee", "out.txt"), ("--tee=2",), ("-t3",)])
def test_script_arguments_like_tee_leave_accelerate_its_own_tee(tmp_path, args):
    """`accelerate launch --tee 3` splits each worker's lines to its rank log; before, a
    script's own `-t`/`--tee` read as the launcher's kept it out (rank 1 wrote into rank 0's)."""
    spec = get_preset("huggingface").spec.with_changes(
        nodes=1, gpus_per_node=2, sku=None, args=args
    )
    p = plan(spec, Target.for_spec("local", spec))
    (launch,) = build_launches(p, tmp_path, bin_dir=BIN, gpus=[], environ={}).launches
    command = launch.argv[-1]
    launcher, _, script_args = command.partition(f" {spec.script} ")
    assert launcher.startswith("accelerate launch --tee 3 "), command
    assert script_args.split() == list(args)  # the script's own, untouched


def test_a_launchers_own_tee_is_left_alone(tmp_path):
    spec = get_preset("huggingface").spec.with_changes(
        nodes=1, gpus_per_node=2, sku=None, command="accelerate launch --tee 1 train.py"
    )
    p = plan(spec, Target.for_spec("local", spec))
    (launch,) = build_launches(p, tmp_path, bin_dir=BIN, gpus=[], environ={}).launches
    assert "--tee 3" not in launch.argv[-1]


# ---- 21: a price too small for cents -----------------------------------------------------------


def _cache(row: dict) -> None:
    path = cache_dir() / prices.CACHE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "fetched": datetime.now(timezone.utc).isoformat(),
        "prices": {"eastus": {"Standard_ND96asr_v4": {"date": "2026-11-20", **row}}},
    }
    path.write_text(json.dumps(data))


def _line() -> str:
    spec = get_preset("pytorch-ddp").spec
    priced = prices.plan_price(plan(spec, Target.for_spec("azureml", spec)))
    assert priced is not None
    return priced.line()


@pytest.mark.parametrize(
    ("each", "shown", "total"),
    [(0.0042, "$0.0042/h", "$0.0084/h"), (1e-9, "under $0.000001/h", "under $0.000001/h")],
)
def test_a_tiny_cached_price_is_shown_not_called_unknown(home, each, shown, total):
    _cache({"dedicated": each, "low_priority": None})
    line = _line()
    assert "$0.00/h" not in line and "dedicated price unknown" not in line, line
    assert line.startswith(f"{total} dedicated, low-priority price unknown (2 × ")
    assert f"at {shown};" in line


def test_the_price_line_of_the_cli_shows_a_tiny_price(home, tmp_path):
    _cache({"dedicated": 0.0042, "low_priority": 0.001})
    out = run_cli("preview", "--preset", "pytorch-ddp", cwd=tmp_path)
    assert out.rc == 0, out.stderr
    price = next(x for x in out.stdout.decode().splitlines() if x.startswith("Price:"))
    assert price.startswith("Price: $0.0084/h dedicated, $0.002/h low-priority (2 × "), price
