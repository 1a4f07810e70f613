"""What the fifteenth fresh set (2026-11-28o, folded into the corpus) taught the script check: a
name called `local_rank` that the code gave the global rank (`local_rank = misc.get_rank()`) picks
a global share of the data, not a node's. Run on the corpus scripts it came from, as they are
and with the name given the node's rank."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

MAR = "pytorch_mar/main_mar.py"
UNET = "pytorch_mlperf_unet3d/main.py"


def test_a_local_rank_that_holds_the_global_rank_picks_a_global_share():
    # LTH14/mar: engine_mar.py's `local_rank = misc.get_rank()`, then `local_rank * batch_size`
    assert lines(check(MAR), "rank_not_from_env", "pytorch_mar/engine_mar.py") == []
    # mlcommons/training (3D U-Net): `local_rank = get_rank()` before `worker_seeds[local_rank]`
    assert lines(check(UNET), "rank_not_from_env") == []
    node = ("    local_rank = get_rank()\n", '    local_rank = int(os.environ["LOCAL_RANK"])\n')
    assert lines(check(UNET, node), "rank_not_from_env") == [38]
