"""The network NCCL used, read from real NCCL_DEBUG=INFO excerpts (issue 29).

The corpus (`data/nccl/`, sources in SOURCES.md) was labelled before the reader existed and split
once into dev and test; these tests assert both halves' scores (`python -m
tests.logs.network_corpus` prints them, with the dev half's misses).
"""

from __future__ import annotations

import json

import pytest

from tests.logs import network_corpus as corpus
from tui.logs.network import (
    MAX_LINES,
    NetworkReader,
    fallback_warning,
    feed_file,
    read_lines,
    read_logs,
)

SIZE_WITH_IB = "Standard_ND96asr_v4"


@pytest.mark.parametrize("half", ["dev", "test"])
def test_corpus_scores(half: str) -> None:
    score = corpus.score(half)
    assert score.logs >= 24
    assert score.transport >= 0.95, score.misses if half == "dev" else score.transport
    assert score.fallback_warned == score.fallback_logs > 0  # every fallback log warned
    assert score.ib_warned == 0 < score.ib_logs  # no InfiniBand or RoCE log warned


def test_every_class_is_in_both_halves() -> None:
    truth = corpus.truth()
    for half in ("dev", "test"):
        classes = {truth[n]["inter_node"] for n in corpus.split(half)}
        assert {"ib", "ib_gdr", "roce", "efa", "socket", "none"} <= classes


def test_the_issue_keys_are_in_the_json() -> None:
    net = corpus.read("nccltests_36")
    out = net.to_json()
    for key in ("nccl_version", "nranks", "nodes", "inter_node", "intra_node"):
        assert key in out
    assert out["ib_disabled_by_env"] is False
    assert (out["nccl_version"], out["nranks"], out["nodes"]) == ("2.5.6", 2, 2)
    assert out["inter_node"] == "ib" and out["ib_devices"] == ["mlx4_0"]


def test_ib_with_gdr_and_intra_node_paths() -> None:
    net = corpus.read("nccl_429")
    assert net.inter_node == "ib_gdr"
    assert net.intra_node == ("p2p",)
    assert "InfiniBand with GPUDirect RDMA" in net.summary()


def test_several_records_pasted_on_one_line_are_read_apart() -> None:
    net = corpus.read("deepep_106")  # RoCE NICs through IBext, GDRDMA hops, glued lines
    assert net.inter_node == "roce"
    assert "mlx5_bond_0" in net.ib_devices


def test_one_node_talking_through_the_nic_is_an_intra_node_path() -> None:
    net = corpus.read("nccl_707")  # P2P and SHM disabled: ranks of one host via NET/IB
    assert net.inter_node == "none" and net.intra_node == ("net",)
    assert net.nranks == 4


def test_the_plan_says_how_many_nodes_when_nccl_does_not() -> None:
    path = corpus.DATA / "nccl_1214.log"  # one host's log, 'Using network Socket'
    assert read_logs([path]).inter_node == "socket"
    assert read_logs([path], plan_nodes=1).inter_node == "none"
    assert read_logs([path], plan_nodes=2).nodes == 2


def test_no_nccl_lines_says_how_to_get_them() -> None:
    net = read_lines(["epoch 1 loss 0.3", "Traceback (most recent call last):"])
    assert not net.seen and net.inter_node is None
    assert "NCCL_DEBUG=INFO" in net.summary()


def test_warning_only_for_sockets_on_an_infiniband_size() -> None:
    socket = corpus.read("mlflow_8444")  # Azure ML, NCCL_IB_DISABLE=1
    warning = fallback_warning(socket, SIZE_WITH_IB, has_ib=True)
    assert warning is not None and SIZE_WITH_IB in warning.title
    assert "NCCL_IB_DISABLE" in warning.causes[0]  # what the log shows comes first
    text = " ".join(warning.causes + warning.fixes)
    for word in ("image", "NCCL_SOCKET_IFNAME", "scale set", "shm_size"):
        assert word in text
    assert fallback_warning(socket, "Standard_NC24ads_A100_v4", has_ib=False) is None
    assert fallback_warning(corpus.read("aksrdma_36"), SIZE_WITH_IB, has_ib=True) is None


def test_an_image_without_verbs_is_named() -> None:
    warning = fallback_warning(corpus.read("skypilot_4448"), SIZE_WITH_IB, has_ib=True)
    assert warning is not None and "could not open libibverbs" in warning.causes[0]


def test_nccl_lines_before_megabytes_of_training_are_read(tmp_path) -> None:
    head = (corpus.DATA / "nccl_429.log").read_bytes()
    filler = b"step 12 loss 0.123 lr 3e-4 tokens/s 81234\n" * 200_000  # ~8 MB of training
    path = tmp_path / "std_log_process_0.txt"
    path.write_bytes(head + filler + b"NCCL INFO comm 0x1 rank 0 nranks 16 - Init COMPLETE\n")
    net = read_logs([path])  # how fast: tests/benchmarks (a clock here flakes on a busy machine)
    assert net.inter_node == "ib_gdr" and net.nranks == 16


def test_a_log_that_prints_nccl_forever_is_read_up_to_a_bound(tmp_path) -> None:
    line = b"h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0\n"
    path = tmp_path / "loop.txt"
    path.write_bytes(line * (MAX_LINES + 5_000))
    reader = NetworkReader()
    feed_file(reader, path)
    assert reader.lines == MAX_LINES


def test_doctor_json_has_the_network_object(tmp_path, capsys) -> None:
    from tui.cli.commands import main

    logs = tmp_path / "user_logs"
    logs.mkdir()
    for rank, name in enumerate(["nccl_844", "nccl_845"]):
        text = (corpus.DATA / f"{name}.log").read_text(encoding="utf-8")
        (logs / f"std_log_process_{rank}.txt").write_text(text, encoding="utf-8")
    code = main(["doctor", str(logs), "--json", "--vm-size", SIZE_WITH_IB])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 1, 3)  # any verdict (3: not proven healthy); the network is the point
    network = out["network"]
    assert network["inter_node"] == "socket" and network["nodes"] == 2
    assert network["ib_disabled_by_env"] is True and network["vm_size_has_infiniband"] is True
    assert network["warning"]["title"].startswith("NCCL used TCP sockets between nodes")
    assert {"nccl_version", "nranks", "intra_node"} <= set(network)


# ---- NCCL 2.3-2.4 (issue 36): what older NCCL printed, and lines behind a launcher's tag ------


def test_nccl_2_3_names_its_network_and_devices_its_own_way() -> None:
    net = corpus.read("horovod_639")  # `NET/IB: [0] mlx5_0:1/IB`, `Using internal Network IB`
    assert (net.inter_node, net.nodes, net.nccl_version) == ("ib", 3, "2.3.5")
    assert net.ib_devices == ("mlx5_0",)
    socket = corpus.read("horovod_969")  # `NET : Using interface enp14s0:10.128.4.242<0>`
    assert "enp14s0 10.128.4.242" in socket.socket_interfaces


def test_every_rank_on_one_host_is_one_node() -> None:
    net = corpus.read("horovod_969")  # `rank R nranks 4` from GPU03 for R = 0..3
    assert (net.inter_node, net.nodes, net.nranks) == ("none", 1, 4)
    # One host's lines of a bigger job (ranks 0 of 8 only) prove nothing of the sort.
    assert corpus.read("nccl_179").inter_node == "ib"


@pytest.mark.parametrize(
    "tag", ["[1,0]<stdout>:", "0: ", "[rank1]:", "2020-11-08 20:25:49 [1,0]<stderr>:", "[4] "]
)
@pytest.mark.parametrize("name", ["horovod_639", "horovod_969", "nccl_224", "nccl_429"])
def test_a_launchers_tag_before_each_line_changes_nothing(tag: str, name: str) -> None:
    lines = (corpus.DATA / f"{name}.log").read_text(encoding="utf-8").splitlines()
    plain, tagged = read_lines(lines), read_lines([tag + line for line in lines])
    assert tagged.to_json() | {"evidence": []} == plain.to_json() | {"evidence": []}
