"""Each GPU's use read back from the sampler's marked lines (tui/logs/gpus.py), the one rule that
compares each GPU with its peers, and the progress parser finding no metric in those lines."""

from __future__ import annotations

from pathlib import Path

from tui.injob.dtrain_tui_gpus import line, parse_csv
from tui.logs.gpus import GpuWatch, SampleFiles, parse
from tui.logs.progress import ProgressTracker, parse_line
from tui.logs.progress_bulk import BulkReader

SMI = Path(__file__).parents[1] / "injob" / "data" / "nvidia_smi"
BUSY = parse_csv((SMI / "one_gpu.csv").read_text())[0]  # a real 5090 reading: 4 %
T0 = 1_700_000_000


def _lines(utils: dict[int, list[int]], node: str = "0", every: int = 30) -> list[str]:
    """Sample lines, one per `every` s, GPU i at utilisation utils[i][k] in sample k."""
    count = len(next(iter(utils.values())))
    return [
        line(
            node, T0 + k * every, [(str(i), str(u[k]), "20139", "32607") for i, u in utils.items()]
        )
        for k in range(count)
    ]


def test_a_line_reads_back_as_the_gpus_it_was_written_from():
    rows = parse_csv((SMI / "two_gpus.csv").read_text())
    sample = parse("[default0]:" + line("3", T0, rows))
    assert sample is not None and sample.node == "3" and sample.t == T0
    assert [(g.index, g.util, g.used, g.total) for g in sample.gpus] == [
        (0, 0.0, 0.0, 12288.0),
        (1, 100.0, 15868.0, 16311.0),
    ]
    assert parse("dtrain-tui gpus: node=0 t=1 0:97,31500") is None  # torn: not a sample


def test_one_gpu_idle_while_its_peers_work_is_named_with_its_share():
    busy = [97] * 20
    idle = [97] * 8 + [2] * 12  # idle in the last 12 of 20 samples (10 min at 30 s)
    watch = GpuWatch()
    watch.feed(_lines({0: busy, 1: busy, 2: busy, 3: busy, 4: busy, 5: idle, 6: busy, 7: busy}))
    finding = watch.finding()
    assert finding is not None
    assert finding.startswith("GPU 5 idle 60 % of the last 10 min while the others are busy")
    assert "input pipeline" in finding
    assert watch.summary().startswith("0 97 % 19.7/32 GB")


def test_all_busy_all_idle_or_one_gpu_alone_says_nothing_stands_out():
    for utils in ({0: [97] * 5, 1: [95] * 5}, {0: [0] * 5, 1: [1] * 5}, {0: [0] * 5}):
        watch = GpuWatch()
        watch.feed(_lines(utils))
        assert watch.seen and watch.finding() is None, utils


def test_only_the_last_ten_minutes_count():
    watch = GpuWatch()
    # Idle for 10 min long ago, then 11 min busy like its peer: nothing stands out now.
    watch.feed(_lines({0: [0] * 30 + [90] * 21, 1: [90] * 51}))  # 59 % idle in all
    assert watch.finding() is None


def test_nodes_are_named_when_there_are_several():
    watch = GpuWatch()
    watch.feed(_lines({0: [90] * 5, 1: [90] * 5}, node="0"))
    watch.feed(_lines({0: [90] * 5, 1: [0] * 5}, node="1"))
    assert watch.finding().startswith("GPU 1 on node 1 idle 100 %")
    assert watch.summary().startswith("node 0: 0 90 %")


def test_the_files_are_read_from_where_the_last_read_ended(tmp_path):
    log = tmp_path / "std_log_process_0.txt"
    first = _lines({0: [50, 60]})
    log.write_text(f"epoch 1 loss 0.5\n{first[0]}\nstep 3\n{first[1]}\n{BUSY[0]}")  # a torn end
    files = SampleFiles()
    assert files.read([str(log)]) == first
    with log.open("a") as f:
        f.write("\n" + _lines({0: [70]})[0] + "\n")
    assert [parse(s).gpus[0].util for s in files.read([str(log)])] == [70.0]
    assert files.read([str(log)]) == []


def test_a_rank_whose_log_grows_only_by_samples_has_not_grown(tmp_path):
    # local rank 0 hung in a collective: its sampler thread still writes a line every 30 s, and
    # the rank strip (fed `own_sizes`) must see a silent rank, not a growing one
    log = tmp_path / "std_log_process_0.txt"
    log.write_text("epoch 1 loss 0.5\n")
    files = SampleFiles()
    files.read([str(log)])
    before = files.own_sizes()[str(log)]
    with log.open("a") as f:
        f.write("\n".join(_lines({0: [0, 0, 0]})) + "\n")
    files.read([str(log)])
    assert files.own_sizes()[str(log)] == before
    with log.open("a") as f:  # a progress bar's update, no newline yet: the rank's own bytes
        f.write("\r 40%|####      | 4/10")
    files.read([str(log)])
    assert files.own_sizes()[str(log)] > before


def test_the_progress_parser_finds_no_metric_in_sample_lines():
    lines = _lines({0: list(range(50, 90, 2)), 1: list(range(90, 50, -2))})
    assert all(parse_line(text) is None for text in lines)
    tracker = ProgressTracker()
    tracker.feed(lines)
    assert tracker.series == {} and tracker.standing().step is None
    bulk = ProgressTracker()
    BulkReader(bulk).feed([text.encode() for text in lines])
    assert bulk.series == {} and bulk.standing().step is None
