"""The cluster check: all_reduce_perf's table read exactly from real outputs, compared with what
the VM size should reach, and the preset that runs it (issue 29)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml

from tui.logs.nccl_tests import compare, expected, parse
from tui.planning.plan import plan
from tui.planning.presets import get_preset

DATA = Path(__file__).parent / "data" / "nccl_tests"
EXPECTED = yaml.safe_load((DATA / "expected.yaml").read_text(encoding="utf-8"))


def test_there_are_at_least_eight_real_outputs() -> None:
    assert len(EXPECTED) >= 8
    assert {p.stem for p in DATA.glob("*.log")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_size_and_the_average_are_read_exactly(name: str) -> None:
    result = parse((DATA / f"{name}.log").read_text(encoding="utf-8").splitlines())
    assert result is not None
    want = EXPECTED[name]
    assert [[r.size, r.busbw, r.busbw_in_place] for r in result.rows] == want["rows"]
    assert result.avg_busbw == want["avg_busbw"]
    assert result.out_of_bounds == 0


def test_rows_with_an_error_column_in_exponent_form() -> None:
    # NVIDIA/nccl#340: nccl-tests printing `0e+00` in the #wrong column
    lines = [
        "         256            64   float     sum       0     7.14    0.04    0.04  0e+00"
        "     7.12    0.04    0.04  0e+00",
        "      524288        131072   float     sum       0    40.93   12.81   12.81  0e+00"
        "    40.93   12.81   12.81  0e+00",
    ]
    result = parse(lines)
    assert result is not None and [r.busbw for r in result.rows] == [0.04, 12.81]
    assert result.avg_busbw is None  # a run cut before its summary keeps its rows


def test_older_table_layouts() -> None:
    # Rows as posted: NVIDIA/nccl#1244 (12 fields, no root column), NVIDIA/nccl-tests#44 (11:
    # the first releases, no redop either).
    twelve = (
        "         128            32     float     sum    47.76    0.00    0.01  6e-08"
        "    46.52    0.00    0.01  6e-08"
    )
    eleven = (
        "    67108864       8388608   float   1568.3   21.40   21.40  0e+00"
        "   1560.9   21.50   21.50  0e+00"
    )
    result = parse([twelve, eleven])
    assert result is not None
    assert [(r.size, r.busbw, r.busbw_in_place) for r in result.rows] == [
        (128, 0.01, 0.01),
        (67108864, 21.40, 21.50),
    ]


def test_no_table_is_none() -> None:
    assert parse(["NCCL INFO Bootstrap : Using eth0:10.0.0.4<0>", "# Using devices"]) is None


def test_the_expectations_come_from_azure_with_their_source() -> None:
    skus = Path(__file__).parents[2] / "presets" / "skus.yaml"
    rows = yaml.safe_load(skus.read_text(encoding="utf-8"))
    with_figures = [r for r in rows if "nccl_allreduce" in r]
    assert len(with_figures) >= 5
    for row in with_figures:
        assert row["nccl_allreduce"]["source"].startswith(
            "https://github.com/Azure/azurehpc-health-checks/blob/"
        )
    h100 = expected("Standard_ND96isr_H100_v5")
    assert h100 is not None and h100.nics == 8
    assert (h100.busbw(1), h100.busbw(2)) == (460.0, 380.0)  # 8 NICs x 380 Gb/s / 8
    assert expected("Standard_ND96asr_v4").busbw(4) == 180.0
    assert expected("Standard_NC24ads_A100_v4") is None


def test_compare_says_how_far_from_the_vm_size() -> None:
    h100_2x8 = parse((DATA / "a3mega_h100_2x8.log").read_text(encoding="utf-8").splitlines())
    verdict = compare(h100_2x8, "Standard_ND96isr_H100_v5", nodes=2)
    assert verdict.measured == 338.82 and verdict.expected == 380.0
    assert "89%" in verdict.words and "azurehpc-health-checks" in verdict.source
    dgx = parse((DATA / "llminsights_dgxa100_4gpu.log").read_text(encoding="utf-8").splitlines())
    assert compare(dgx, "Standard_ND96asr_v4", nodes=1).words.endswith("as expected")
    nvlink_off = parse(
        (DATA / "llminsights_dgxa100_4gpu_nop2p.log").read_text(encoding="utf-8").splitlines()
    )
    assert "only 2%" in compare(nvlink_off, "Standard_ND96asr_v4", nodes=1).words
    assert "no published figure" in compare(dgx, "Standard_NC24ads_A100_v4", 1).words


def test_the_cluster_check_preset_is_one_mpi_job_over_every_gpu() -> None:
    preset = get_preset("cluster-check")
    p = plan(preset.spec)
    assert p.distribution.type == "mpi"
    assert (p.instance_count, p.distribution.process_count_per_instance) == (2, 8)
    assert "/opt/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1" in p.command
    assert p.env_vars["NCCL_DEBUG"] == "INFO"
    assert preset.spec.environment == {"image": "mcr.microsoft.com/aznhc/aznhc-nv:latest"}
    assert "nccl-tests" in preset.note and "aznhc-nv" in preset.note


def test_the_rehearsal_says_it_is_one_and_measures_nothing(tmp_path) -> None:
    command = get_preset("cluster-check").spec.command
    env = {**os.environ, "OMPI_COMM_WORLD_RANK": "3", "OMPI_COMM_WORLD_SIZE": "16"}
    out = subprocess.run(
        ["bash", "-c", command], env=env, capture_output=True, text=True, cwd=tmp_path, check=True
    ).stdout
    if Path("/opt/nccl-tests/build/all_reduce_perf").exists():
        pytest.skip("nccl-tests is installed here: the real benchmark would run")
    assert "cluster check REHEARSAL" in out and "rank 3 of 16" in out
    assert parse(out.splitlines()) is None


def test_doctor_reads_the_table_and_compares(tmp_path, capsys) -> None:
    from tui.cli.commands import main

    folder = tmp_path / "user_logs"
    folder.mkdir()
    text = (DATA / "oci_a100_2x8.log").read_text(encoding="utf-8")
    (folder / "std_log_process_0.txt").write_text(text, encoding="utf-8")
    main(["doctor", str(folder), "--json", "--vm-size", "Standard_ND96asr_v4"])
    out = json.loads(capsys.readouterr().out)["allreduce"]
    assert out["sizes"] == 31 and out["avg_busbw_gbs"] == 66.4834
    assert out["largest_busbw_gbs"] == 237.94 and out["expected_busbw_gbs"] == 180.0
    assert out["verdict"].endswith("as expected")
