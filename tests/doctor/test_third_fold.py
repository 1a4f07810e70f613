"""Issue 36, the third fresh set (2026-11-27c) folded into the dev half: an accelerator's
allocator out of memory in XLA's words, more ranks at the store barrier than the world has, a bare
`Killed` as a paste shows it, a command naming a script that is not there, and the end of a run in
MLPerf's older words and a trainer's last step with its validation loss. Each log is a few lines of
the folded case named beside it, as its author printed them."""

from __future__ import annotations

import pytest

from tui.logs.doctor import diagnose

STARTED = "step 100 loss 2.31\n"


@pytest.mark.parametrize(
    "line",
    [
        # cuda_oom_jax_13428 (jax-ml/jax#13428)
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
        "allocate 6291456 bytes.",
        # cuda_oom_keypointmoseq_236 (dattalab/keypoint-moseq#236)
        "2023-03-06 11:02:49.349383: W external/org_tensorflow/tensorflow/tsl/framework/"
        "bfc_allocator.cc:479] Allocator (GPU_2_bfc) ran out of memory trying to allocate "
        "91.27GiB (rounded to 98000000000)requested by op",
    ],
    ids=["xla-runtime", "bfc-allocator"],
)
def test_an_accelerators_allocator_out_of_memory_is_cuda_oom(line):
    got = diagnose({"train.log": STARTED + line + "\n"})
    assert (got.verdict, got.cause) == ("failed", "cuda_oom"), got.paragraph()


def test_more_workers_at_the_store_barrier_than_the_world_is_a_world_size_mismatch():
    # world_size_mismatch_parallelformers_54 (tunib-ai/parallelformers#54): the line goes on
    # into a runner's WARNING, which must not make it noise
    line = (
        "RuntimeError: Timed out initializing process group in store based barrier on rank: 7, "
        "for key: store_based_barrier_key:1 (world_size=8, worker_count=9, timeout=0:30:00) "
        "WARNING No nodes ran. Repeat the previous runner.py:213 command to attempt a new"
    )
    got = diagnose({"train.log": line + "\n"})
    assert got.cause == "world_size_mismatch", got.paragraph()


def test_fewer_workers_at_the_store_barrier_is_a_rank_that_never_came():
    line = (
        "RuntimeError: Timed out initializing process group in store based barrier on rank: 0, "
        "for key: store_based_barrier_key:1 (world_size=8, worker_count=7, timeout=0:30:00)"
    )
    got = diagnose({"train.log": line + "\n"})
    assert got.cause == "rendezvous_timeout", got.paragraph()


def test_a_bare_killed_in_a_paste_is_the_kernels_kill():
    # host_oom_killed_fastmaskrcnn_172 (CharlesShang/FastMaskRCNN#172): the paste bolds it
    got = diagnose({"train.log": "iter 144\n[]\nclasses\n['background']\n\n**Killed**\n"})
    assert (got.verdict, got.cause) == ("failed", "host_oom_killed"), got.paragraph()


def test_a_command_naming_a_missing_script_is_the_users_to_fix():
    # other_idiffface_6 (fdbtrs/IDiff-Face#6)
    log = (
        "/usr/bin/python3: can't open file 'train_jonas.py': [Errno 2] No such file or directory\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 2) local_rank: 0 "
        "(pid: 11475) of binary: /usr/bin/python3\n"
    )
    got = diagnose({"train.log": log})
    assert got.cause == "user_code_error", got.paragraph()
    assert "train_jonas.py" in got.evidence.text


@pytest.mark.parametrize(
    "tail",
    [
        # healthy_mlperfv05_googlegce (mlcommons/training_results_v0.5)
        ':::MLPv0.5.0 resnet 1543793532.124254465 (benchmark_cnn.py:2520) run_stop: {"success": '
        "true}\n:::MLPv0.5.0 resnet 1543793532.125674725 (benchmark_cnn.py:2521) run_final\n",
        # healthy_moddednanogpt_494aa85f (KellerJordan/modded-nanogpt, H100_logs)
        "step:1480/1480 train_time:633684ms step_avg:428.16ms\n"
        "step:1480/1480 val_loss:3.2786 train_time:633777ms step_avg:428.23ms\n"
        "peak memory allocated: 37325 MiB reserved: 51882 MiB\n",
    ],
    ids=["mlperf-v0.5", "last-step-with-val-loss"],
)
def test_a_runs_own_words_that_it_ended_prove_it_healthy(tail):
    got = diagnose({"train.log": STARTED + tail})
    assert got.verdict == "healthy", got.paragraph()
