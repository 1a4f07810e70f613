"""What the doctor prints is read by people new to distributed training: causes in words, the
ids only beside them or in --json (issue 40 item 22: "1 × unknown_failure")."""

from __future__ import annotations

from tui.logs.diagnosis import Diagnosis
from tui.logs.doctor_findings import Finding
from tui.logs.evidence import Evidence


def test_the_consequences_seen_are_listed_by_their_titles_and_json_keeps_the_ids():
    first = Evidence("user_logs/std_log_process_3.txt", 40, "torch.OutOfMemoryError: CUDA out of")
    echo = Evidence("user_logs/std_log_process_0.txt", 88, "Watchdog caught collective timeout")
    others = (
        Finding("nccl_timeout", 0, 1, echo),
        Finding("nccl_timeout", 1, 1, echo),
        Finding("unknown_failure", 2, 0, echo),
    )
    told = Diagnosis("cuda_oom", 3, first, "Lower the batch size.", others=others)
    text = told.paragraph()
    assert (
        "Also seen (most are consequences): 2 × Collective timed out, 1 × Failed, cause unknown."
        in text
    )
    assert "unknown_failure" not in text and "nccl_timeout" not in text
    assert [o["cause"] for o in told.to_json()["others"]] == [
        "nccl_timeout",
        "nccl_timeout",
        "unknown_failure",
    ]
