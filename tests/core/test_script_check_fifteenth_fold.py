"""What the seventeenth fresh set (2026-11-28q, folded into the corpus) taught the script check:
a sampler given a name that holds LOCAL_RANK as its rank (and no num_replicas, so the group's
world size of shares) reads the first node's shares on every node; a script that pins
CUDA_VISIBLE_DEVICES to one GPU in every process puts a node's processes on it; and a helper's
own `__main__` block never runs. Run on the corpus scripts they came from, as they are and as a
reader would fix them."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

DOCTR = "pytorch_doctr_detection/train.py"
BABY = "pytorch_baby_llama2/pretrain.py"


def test_a_sampler_given_a_name_that_holds_local_rank_reads_the_first_nodes_shares():
    # mindee/doctr references/detection/train.py: rank = int(os.environ.get("LOCAL_RANK", 0))
    assert lines(check(DOCTR), "rank_not_from_env") == [439]
    fixed = ('rank = int(os.environ.get("LOCAL_RANK", 0))', 'rank = int(os.environ["RANK"])')
    assert lines(check(DOCTR, fixed), "rank_not_from_env") == []


def test_cuda_visible_devices_pinned_to_one_gpu_in_every_process():
    # DLLXW/baby-llama2-chinese pretrain.py: os.environ['CUDA_VISIBLE_DEVICES'] = '0' at the top
    assert 3 in lines(check(BABY), "device_not_local_rank")
    unpinned = ("os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n", "\n")
    assert 3 not in lines(check(BABY, unpinned), "device_not_local_rank")
    every_gpu = ("= '0'\n", "= '0,1,2,3,4,5,6,7'\n")  # all of a node's 8: each process picks one
    assert 3 not in lines(check(BABY, every_gpu), "device_not_local_rank")


def test_a_helpers_own_main_block_never_runs():
    # WongKinYiu/yolov7: test.py's `if __name__ == '__main__':` parses its own flags; the plan
    # runs train.py, which imports test.py, so that parser never sees the plan's arguments
    assert lines(check("pytorch_yolov7/train.py"), "argv_rejected") == []
    # charent/ChatLM-mini-Chinese: model/dataset.py's demo DataLoaders under its `__main__`
    found = check("hf_chatlm_mini/train.py")
    assert lines(found, "accelerate_not_prepared", "model/dataset.py") == []
    # what the demo names still counts as used: fire runs ChatTrainer.train by the plan's name
    assert lines(found, "no_process_group") == []
