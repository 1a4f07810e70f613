"""Through any restructuring, every preset shows and writes exactly what it did: the review's text,
the job YAML, the JSON, the azure-ai-ml code and the script check, on Azure ML and this machine."""

from __future__ import annotations

import difflib

import pytest

from tests.core.golden import CASES, output, path


@pytest.mark.parametrize("target_name", ["azureml", "local"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_preview_export_and_check_are_unchanged(case: str, target_name: str) -> None:
    expected = path(case, target_name).read_text(encoding="utf-8")
    got = output(case, target_name)
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True), got.splitlines(keepends=True), "golden", "now", n=1
        )
    )
    assert got == expected, f"{case} on {target_name} changed:\n{diff[:4000]}"
