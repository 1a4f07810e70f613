"""`dtrain-tui doctor` on input no log should be: one line and exit 2, or a diagnosis, never a
traceback; and what the doctor keeps of a log stays small however big the log is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doctor.corpus import cases
from tui.cli.commands import main
from tui.logs.doctor_rules import EXCEPTION_LINE, RULES, maybe_error
from tui.logs.evidence import MAX_LINE, load_path, read_excerpt
from tui.logs.signatures import SIGNATURES


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["doctor", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_binary_file_is_one_line_and_exit_2(tmp_path: Path, capsys):
    blob = tmp_path / "core.log"
    blob.write_bytes(bytes(range(256)) * 64)
    code, _, err = run_cli(capsys, str(blob))
    assert code == 2 and err.count("\n") == 1 and "binary" in err


def test_an_empty_folder_is_one_line_and_exit_2(tmp_path: Path, capsys):
    (tmp_path / "user_logs").mkdir()
    code, _, err = run_cli(capsys, str(tmp_path / "user_logs"))
    assert code == 2 and err.count("\n") == 1 and "no log files" in err


def test_a_log_of_escape_sequences_only_is_one_line_and_exit_2(tmp_path: Path, capsys):
    log = tmp_path / "std_log.txt"
    log.write_text("\x1b[2J\x1b[H\x1b[31m\x1b[0m\x1b]0;title\x07\r\n" * 500)
    code, _, err = run_cli(capsys, str(log))
    assert code == 2 and err.count("\n") == 1 and "no log text" in err


def test_a_2_gb_single_line_is_diagnosed_from_its_ends(tmp_path: Path, capsys):
    huge = tmp_path / "std_log.txt"
    with huge.open("wb") as f:  # sparse: a text head, a hole, a text tail; nothing in between
        f.write(b"epoch 1 step 1 loss 0.5 " * 400)
        f.seek((2 << 30) - 4096)
        f.write(b"x" * 4000 + b" Segmentation fault (core dumped)")
    code, out, _ = run_cli(capsys, str(huge), "--json")
    assert code == 1 and '"cause": "segfault"' in out
    kept = read_excerpt(huge)
    assert sum(len(text) for _, text in kept.lines) <= 4 * MAX_LINE


def test_a_binary_file_beside_real_logs_is_left_out(tmp_path: Path, capsys):
    (tmp_path / "std_log_process_0.txt").write_text("step 1\nKilled\n")
    (tmp_path / "std_log_process_1.txt").write_bytes(b"\x00\x01\x02" * 5000)
    code, out, _ = run_cli(capsys, str(tmp_path))
    assert code == 1 and "Rank 0 failed first" in out


def test_a_long_log_is_kept_as_its_head_first_error_and_tail(tmp_path: Path):
    lines = [f"step {i} loss 0.5" for i in range(200_000)]
    lines[70_000] = "ValueError: bad batch at step 70000"
    (tmp_path / "std_log_process_0.txt").write_text("\n".join(lines) + "\n")
    logs, _ = load_path(tmp_path)
    kept = dict(logs["std_log_process_0.txt"].lines)
    assert len(kept) < 2_000
    assert kept[70_001] == "ValueError: bad batch at step 70000"
    assert kept[1] == "step 0 loss 0.5" and kept[200_000] == "step 199999 loss 0.5"


@pytest.mark.parametrize("half", ["dev", "test"])
def test_the_quick_word_check_never_hides_a_line_a_rule_would_match(half):
    """`maybe_error` skips lines without any rule's words; no corpus line a rule matches is
    skipped (a property of the rules, not a score: it reads every line of both halves)."""
    patterns = [r.pattern for r in RULES] + [s.pattern for s in SIGNATURES] + [EXCEPTION_LINE]
    for case in cases(half):
        for line in case.path.read_text(encoding="utf-8", errors="replace").splitlines():
            text = line.strip()
            if any(p.search(text) for p in patterns):
                assert maybe_error(text), line
