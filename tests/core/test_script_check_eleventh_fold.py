"""What the thirteenth fresh set (2026-11-27m, folded into the corpus) taught the script check:
the global rank as the GPU is found however it is written (`set_device(dist.get_rank())`, a
device name given the rank, `rank % 6` for another cluster's six GPUs a node). Each is run on
the corpus script it came from, as it is and with the change that uses the local rank."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

CHESS = "pytorch_princeton_fsdp_chess.py"
DDBM = "deepspeed_latent_ddbm/train_deepspeed.py"
SUMMIT = "pytorch_olcf_resnet_multinode/resnet_classifier_multinode.py"


def test_set_device_of_get_rank_is_the_global_rank():
    # PrincetonUniversity/multi_gpu_training: torch.cuda.set_device(torch.distributed.get_rank())
    assert lines(check(CHESS), "device_not_local_rank") == [181]
    local = (
        "torch.cuda.set_device(torch.distributed.get_rank())",
        'torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))',
    )
    assert lines(check(CHESS, local), "device_not_local_rank") == []


def test_a_device_given_the_global_rank_is_said_where_it_is_chosen():
    # galaxygliese/Latent-DDBM: rank = dist.get_rank(); device = rank; x.to(device)
    assert lines(check(DDBM), "device_not_local_rank") == [201]
    local = ("    device = rank\n", "    device = local_rank\n")
    assert lines(check(DDBM, local), "device_not_local_rank") == []


def test_the_global_rank_modulo_another_clusters_gpus_a_node():
    # olcf/ai-training-series: model.to(world_rank % 6) for Summit's six GPUs a node; the plan
    # has 8 a node, so GPUs 6 and 7 stay idle while ranks share 0..5
    found = check(SUMMIT)
    assert lines(found, "device_not_local_rank") == [142]
    said = next(w for r, _, _, w in found if r == "device_not_local_rank")
    assert "modulo 6" in said and "GPUs 6..7 stay idle" in said
    eight = ("world_rank % 6", "world_rank % 8")  # every use, as the script's four
    assert lines(check(SUMMIT, eight), "device_not_local_rank") == []
