"""Hostile input, full disks, broken state: every probe is the real CLI in a fresh interpreter
under a 1 GB address-space cap and a 10 s ceiling (tests/hostile/probes.py).

A refusal is exit 2, one line on stderr, no traceback; a write that fails leaves the previous
file byte-identical. The probes run in parallel (they wait on subprocesses), once per module.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.hostile.probes import FILL, Outcome, on_tiny_disk, run_cli, userns_problem

DATA = Path(__file__).parent / "data"
JOB = (DATA / "cifar_job.yml").read_text()
BOMB = (DATA / "billion_laughs.yaml").read_text()
ESC = "\x1b[1A\x1b[2Khidden\x1b]0;pwned\x07"
ONE = ["--set", "nodes=1", "--set", "gpus_per_node=1"]
BIG = ["--set", "nodes=16", "--set", "gpus_per_node=64"]
WORKSPACE = ["--subscription", "s", "--resource-group", "r", "--workspace", "w"]
OLD = b"# the user's own job.yml, which a failed export must leave as it is\n"


@dataclass
class Probe:
    """One hostile run: the CLI arguments, and what the folder holds before it starts."""

    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    tty: bool = False
    disk: tuple[str, str] | None = None
    """(setup, after) shell run on a 64 KB filesystem of the probe's own, mounted on ./disk."""
    userns: list[str] = field(default_factory=list)


def _latin1_job() -> bytes:
    return JOB.replace("CIFAR-10 dataset", "CIFAR-10 dataset, café").encode("latin-1")


PROBES: dict[str, Probe] = {
    # 1 · counts bounded by Azure ML's own limits; alias bombs and huge files refused
    "nodes=1e9": Probe(["preview", "--preset", "pytorch-ddp", "--set", "nodes=1000000000"]),
    "nodes=1e26": Probe(["preview", "--set", "nodes=" + "1" + "0" * 26]),
    "nodes=5000 digits": Probe(["preview", "--set", "nodes=" + "9" * 5000]),
    "gpus_per_node=1e9": Probe(["preview", "--set", "sku=", "--set", "gpus_per_node=1000000000"]),
    "parameter_servers=1e9": Probe(
        ["preview", "--preset", "tensorflow-ps", "--set", "parameter_servers=1000000000"]
    ),
    "alias bomb, unknown keys": Probe(
        ["preview", "--job", "bomb.yml"], {"bomb.yml": (JOB + BOMB).encode()}
    ),
    "alias bomb under tags": Probe(
        ["export", "--job", "bomb.yml", "-o", "-"],
        {"bomb.yml": (JOB + BOMB + "tags: {x: *i}\n").encode()},
    ),
    "50 MB job file": Probe(
        ["preview", "--job", "big.yml"], {"big.yml": JOB.encode() + b"#" * (50 << 20) + b"\n"}
    ),
    "--job /dev/zero": Probe(["preview", "--job", "/dev/zero"]),
    "--spec /dev/urandom": Probe(["preview", "--spec", "/dev/urandom"]),
    # 3 · exports never destroy the old file
    "export to /dev/full": Probe(["export", "--force", "-o", "/dev/full"]),
    "export onto a folder": Probe(["export", "--force", "-o", "."]),
    "export --force, full disk": Probe(
        ["export", "--force", "-o", "job.yml"],  # in ./disk, where the probe starts
        {"old.yml": OLD},
        disk=(f"cp ../old.yml job.yml && {FILL}", "cp job.yml ../after"),
    ),
    "export --force, no permission": Probe(
        ["export", "--force", "-o", "ro/job.yml"],
        userns=["unshare", "--user", "--map-user=1000", "--map-group=1000"],
    ),
    # 4 · bytes that are not UTF-8
    "--spec Latin-1": Probe(
        ["preview", "--spec", "s.yml"], {"s.yml": "nodes: 2 # é\n".encode("latin-1")}
    ),
    "--job Latin-1": Probe(["preview", "--job", "j.yml"], {"j.yml": _latin1_job()}),
    "edit Latin-1": Probe(["edit", "j.yml"], {"j.yml": _latin1_job()}),
    "--job UTF-16 without BOM": Probe(
        ["preview", "--job", "j.yml"], {"j.yml": JOB.encode("utf-16-le")}
    ),
    "--preset Latin-1 user preset": Probe(
        ["preview", "--preset", "mine"],
        {"home/config/presets/mine.yaml": "title: café\nspec: {nodes: 2}\n".encode("latin-1")},
        env={"DTRAIN_TUI_HOME": "home"},
    ),
    # 9 · smaller ones
    "--set script=../x.py": Probe(["preview", "--set", "script=../x.py"]),
    "--preset with a YAML error": Probe(
        ["preview", "--preset", "broken"],
        {"home/config/presets/broken.yaml": b"title: x\nspec:\n  nodes: [2\n  env: 1\n"},
        env={"DTRAIN_TUI_HOME": "home"},
    ),
    "submit, script missing": Probe(
        ["submit", "--set", "code=.", "--set", "script=absent.py", "--set", "sku=", *ONE],
        env={"DTRAIN_TUI_HOME": "home"},
    ),
    # 7 · local world size
    "submit 16 × 64 locally": Probe(
        ["submit", "--set", "code=.", "--set", "script=hello.py", "--set", "sku=", *BIG],
        {"hello.py": b"print('hi')\n"},
        env={"DTRAIN_TUI_HOME": "home"},
    ),
    "submit 200 TensorFlow tasks locally": Probe(
        ["submit", "--preset", "tensorflow-ps", "--set", "nodes=199", "--set", "sku="],
        env={"DTRAIN_TUI_HOME": "home"},
    ),
    # 8 · a service principal whose sign-in endpoint cannot be reached (a dead proxy)
    "service principal, no network": Probe(
        ["jobs", "--target", "azure", *WORKSPACE],
        env={
            "HTTPS_PROXY": "http://127.0.0.1:9",
            "AZURE_TENANT_ID": "00000000-0000-0000-0000-000000000001",
            "AZURE_CLIENT_ID": "00000000-0000-0000-0000-000000000002",
            "AZURE_CLIENT_SECRET": "not-a-secret",
        },
    ),
}
# What each refusal names (besides being one line).
SAYS = {
    "nodes=1e9": "4,000",
    "nodes=1e26": "4,000",
    "gpus_per_node=1e9": "1,792",
    "parameter_servers=1e9": "4,000",
    "alias bomb, unknown keys": "aliases expand",
    "alias bomb under tags": "aliases expand",
    "50 MB job file": "larger than 1 MiB",
    "--job /dev/zero": "larger than 1 MiB",
    "export to /dev/full": "No space left on device",
    "export onto a folder": "is a folder",
    "export --force, full disk": "No space left on device",
    "export --force, no permission": "Permission denied",
    "--spec Latin-1": "Windows-1252 or Latin-1",
    "--job Latin-1": "Windows-1252 or Latin-1",
    "edit Latin-1": "Windows-1252 or Latin-1",
    "--job UTF-16 without BOM": "UTF-16 without a byte-order mark",
    "--preset Latin-1 user preset": "Windows-1252 or Latin-1",
    "--set script=../x.py": "outside the code folder",
    "--preset with a YAML error": "not valid YAML at line 4",
    "submit, script missing": "absent.py",
    "submit 16 × 64 locally": "--force",
    "submit 200 TensorFlow tasks locally": "--force",
    "service principal, no network": "EnvironmentCredential",
}


def _run(name: str, probe: Probe, folder: Path, root: Path | None = None) -> Outcome:
    folder.mkdir()
    for rel, data in probe.files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    env = {k: str(folder / v) if k == "DTRAIN_TUI_HOME" else v for k, v in probe.env.items()}
    wrap: list[str] = list(probe.userns)
    if name == "export --force, no permission":
        (folder / "ro").mkdir()
        (folder / "ro/job.yml").write_bytes(OLD)
        (folder / "ro").chmod(0o500)
    if probe.disk is not None:
        (folder / "disk").mkdir()
        wrap = on_tiny_disk(folder / "disk", *probe.disk)
    extra = {"root": root} if root is not None else {}
    return run_cli(*probe.args, cwd=folder, env=env, wrap=wrap, tty=probe.tty, **extra)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Outcome, Path]]:
    problem = userns_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    root = tmp_path_factory.mktemp("hostile")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            name: pool.submit(_run, name, probe, root / f"p{i}")
            for i, (name, probe) in enumerate(PROBES.items())
        }
        return {name: (f.result(), root / f"p{i}") for i, (name, f) in enumerate(futures.items())}


@pytest.mark.parametrize("name", list(PROBES))
def test_refused_in_one_line_within_the_caps(name: str, outcomes) -> None:
    out, _ = outcomes[name]
    assert not out.timed_out, f"{name}: still running after 10 s"
    assert "Traceback" not in out.stderr and "MemoryError" not in out.stderr, out.stderr
    assert out.rc == 2, (out.rc, out.stderr[-2000:])
    assert len(out.err_lines) == 1 or name.startswith("submit, script"), out.err_lines
    assert out.err_lines[-1].startswith("dtrain-tui: error: "), out.err_lines
    assert SAYS.get(name, "") in out.err_lines[-1]
    assert out.peak_mb < 300, f"{name}: {out.peak_mb:.0f} MB"


def test_a_failed_export_leaves_the_old_file_byte_identical(outcomes) -> None:
    _, folder = outcomes["export --force, full disk"]
    assert (folder / "after").read_bytes() == OLD
    _, folder = outcomes["export --force, no permission"]
    assert (folder / "ro/job.yml").read_bytes() == OLD
    assert [p.name for p in (folder / "ro").iterdir()] == ["job.yml"]  # no temporary left


def test_the_local_limit_says_how_to_go_past_it(outcomes) -> None:
    out, folder = outcomes["submit 16 × 64 locally"]
    assert "1024 processes" in out.stderr and "--force" in out.stderr
    assert not (folder / "home/state/jobs").exists() or not any(
        (folder / "home/state/jobs").iterdir()
    )


# ---- not refusals: what keeps working ------------------------------------------------------


def test_utf16_with_a_bom_is_read_as_windows_editors_save_it(tmp_path: Path) -> None:
    (tmp_path / "job.yml").write_bytes(codecs.BOM_UTF16_LE + JOB.encode("utf-16-le"))
    out = run_cli("preview", "--job", "job.yml", "--show", "yaml", cwd=tmp_path)
    assert out.rc == 0, out.stderr
    assert b"pytorch-cifar-distributed-example" in out.stdout


def test_a_big_but_real_plan_streams_in_flat_memory(tmp_path: Path) -> None:
    """4,000 nodes × 8 GPUs: every one of 32,000 ranks printed, memory flat (was 1 GB+)."""
    out = run_cli(
        "preview",
        "--set",
        "nodes=4000",
        "--set",
        "sku=",
        "--set",
        "gpus_per_node=8",
        "--show",
        "env",
        cwd=tmp_path,
        ceiling=60,
    )
    assert out.rc == 0, out.stderr
    assert out.stdout.count(b"\n  rank ") == 32000
    assert out.peak_mb < 200, f"{out.peak_mb:.0f} MB"


def _evil_job(folder: Path) -> None:
    (folder / "job.yml").write_text(
        JOB + f"environment_variables:\n  NOTE: {json.dumps(ESC)}\n", encoding="utf-8"
    )


def test_control_characters_are_shown_escaped_on_a_terminal(tmp_path: Path) -> None:
    _evil_job(tmp_path)
    for show in ("env", "all", "json"):
        out = run_cli("preview", "--job", "job.yml", "--show", show, cwd=tmp_path, tty=True)
        assert out.rc == 0, out.stderr
        assert b"\x1b[1A" not in out.stdout and b"\x07" not in out.stdout, show
        assert b"\\x1b[1A" in out.stdout or b"\\u001b[1A" in out.stdout, show


def test_piped_output_stays_byte_exact(tmp_path: Path) -> None:
    _evil_job(tmp_path)
    out = run_cli("preview", "--job", "job.yml", "--show", "env", cwd=tmp_path)
    assert out.rc == 0, out.stderr
    assert ESC.encode() in out.stdout


def test_damaged_job_records_are_reported_once_and_shown_as_unknown(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for name, text in [("truncated", '{"name": "trun'), ("empty", ""), ("braces", "{}")]:
        (home / "state/jobs" / name).mkdir(parents=True)
        (home / "state/jobs" / name / "job.json").write_text(text)
    env = {"DTRAIN_TUI_HOME": str(home)}
    out = run_cli("jobs", cwd=tmp_path, env=env)
    assert out.rc == 0 and "Traceback" not in out.stderr, out.stderr
    assert len(out.err_lines) == 3, out.err_lines
    assert all("its record is damaged" in line and "Unknown" in line for line in out.err_lines)
    assert out.stdout.decode().count("Unknown") == 3
    for args in (["logs", "braces", "--no-ui"], ["cancel", "empty"], ["jobs"]):
        out = run_cli(*args, cwd=tmp_path, env=env)
        assert "Traceback" not in out.stderr and out.rc in (0, 2), (args, out.stderr)


def test_a_job_that_cannot_start_on_a_full_disk_fails_with_the_reason(tmp_path: Path) -> None:
    """The job folder is on a 256 KB filesystem; the code folder (outside it) holds 512 KB, so
    job.json is written and the code snapshot runs out of room."""
    problem = userns_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    (tmp_path / "code").mkdir()
    (tmp_path / "code/hello.py").write_text("print('hi')\n")
    (tmp_path / "code/weights.bin").write_bytes(os.urandom(512 << 10))
    (tmp_path / "disk").mkdir()
    wrap = on_tiny_disk(
        tmp_path / "disk",
        "true",
        after='"$1" -m tui jobs > ../jobs.out 2>&1; echo $? > ../jobs.rc',
        size_kb=256,
    )
    out = run_cli(
        "submit", "--wait", "--set", f"code={tmp_path / 'code'}", "--set", "script=hello.py",
        "--set", "sku=", "--set", "nodes=1", "--set", "gpus_per_node=1",
        cwd=tmp_path, env={"DTRAIN_TUI_HOME": str(tmp_path / "disk")}, wrap=wrap, ceiling=30,
    )  # fmt: skip
    assert "Traceback" not in out.stderr, out.stderr
    assert out.rc == 1, out.stderr
    assert "Failed" in out.stderr and "No space left on device" in out.stderr, out.stderr
    assert "starting 1 process here" in out.stderr
    assert (tmp_path / "jobs.rc").read_text().strip() == "0"
    listing = (tmp_path / "jobs.out").read_text()
    assert "Traceback" not in listing and "Failed" in listing, listing


def test_job_records_and_folders_are_the_owners_only(tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text("print('\\x1b[2Khidden')\n")
    home = tmp_path / "home"
    out = run_cli(
        "submit", "--wait", "--set", "code=.", "--set", "script=hello.py", "--set", "sku=",
        "--set", "nodes=1", "--set", "gpus_per_node=1", "--set", "env.HF_TOKEN=hf_x",
        cwd=tmp_path, env={"DTRAIN_TUI_HOME": str(home)}, tty=True, ceiling=30,
    )  # fmt: skip
    assert out.rc == 0, out.stderr
    assert b"\x1b[2Khidden" not in out.stdout and b"\\x1b[2Khidden" in out.stdout
    (job,) = (home / "state/jobs").iterdir()
    assert stat.S_IMODE((home / "state/jobs").stat().st_mode) == 0o700
    assert stat.S_IMODE(job.stat().st_mode) == 0o700
    assert stat.S_IMODE((job / "job.json").stat().st_mode) == 0o600
    assert job.name.startswith("pytorch-1x1-")  # the shape it has, not a preset's name
    logs = run_cli("logs", job.name, "--no-ui", cwd=tmp_path, env={"DTRAIN_TUI_HOME": str(home)})
    assert b"\x1b[2Khidden" in logs.stdout  # piped: byte-exact
    shown = run_cli(
        "logs", job.name, "--no-ui", cwd=tmp_path, env={"DTRAIN_TUI_HOME": str(home)}, tty=True
    )
    assert b"\x1b[2K" not in shown.stdout and b"\\x1b[2Khidden" in shown.stdout
    out = run_cli("export", "-o", "job.yml", "--set", "env.WANDB_API_KEY=abc", cwd=tmp_path)
    assert out.rc == 0, out.stderr
    assert stat.S_IMODE((tmp_path / "job.yml").stat().st_mode) == 0o600
