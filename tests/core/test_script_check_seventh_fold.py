"""What the seventh fresh set (2026-11-27g, folded into the corpus) taught the script check: a
path spelled into the script under another platform's folder, a branch a script function of
no parameters decides (`_is_slurm_job_process()`), a Horovod script that trains nothing, and
DeepSpeed's collective `save_checkpoint(dir, tag)`. Each is run on the corpus script it came
from, as it is and with the fix its finding names (or the change that makes it one)."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines


def test_a_path_spelled_under_another_platforms_folder_is_named():
    # aws/sagemaker-python-sdk hvd_basic.py: open(os.path.join("/opt/ml/model/rank-%s" % rank))
    found = check("horovod_sagemaker_sdk_basic.py")
    assert lines(found, "foreign_platform_path") == [11]
    local = ('"/opt/ml/model/rank-%s"', '"outputs/rank-%s"')
    assert lines(check("horovod_sagemaker_sdk_basic.py", local), "foreign_platform_path") == []


def test_a_horovod_script_that_trains_nothing_needs_no_broadcast_nor_averaging():
    found = check("horovod_sagemaker_sdk_basic.py")
    assert lines(found, "horovod_no_broadcast") == []
    assert lines(found, "horovod_no_distributed_optimizer") == []


def test_a_branch_a_function_of_no_parameters_decides_is_followed():
    # facebookresearch/dinov2: `if _is_slurm_job_process(): return self._set_from_slurm_env()`,
    # where `_is_slurm_job_process` returns "SLURM_JOB_ID" in os.environ (unset on Azure ML)
    file = "dinov2/distributed/__init__.py"
    found = lines(check("pytorch_dinov2/dinov2/train/train.py"), "env_var_not_set", file)
    assert not [n for n in found if n and 180 <= n <= 195]  # _set_from_slurm_env's reads


def test_deepspeeds_save_checkpoint_with_a_tag_is_collective_not_a_clash():
    # Tencent/TencentPretrain trainer.py:240: model.save_checkpoint(path, str(step)) on every rank
    found = check("deepspeed_tencentpretrain/pretrain.py")
    assert lines(found, "unguarded_write", "tencentpretrain/trainer.py") == []
