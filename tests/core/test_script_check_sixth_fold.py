"""What the sixth fresh set (2026-11-27f, folded into the corpus) taught the script check: an EMA
helper of the code folder that cannot be read proves no copy of the wrapper, `model.save(epoch,
…)` of a script's own model class writes no path it can see, an address given to
`init_process_group` by position, a `--launcher` left at `none`, a split seeded by a generator it
does not draw from, a library's argument dataclass whose fields cannot be read, and a path
defaulting to another platform's folder. Each is run on the corpus script it came from, as it is
and with the fix its finding names."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines


def test_an_unreadable_ema_helper_of_the_code_folder_is_no_wrapped_copy():
    # Megvii-BaseDetection/YOLOX: ModelEMA (yolox/utils/ema.py, not in the copy) copies .module
    assert lines(check("pytorch_yolox/tools/train.py"), "wrapped_model_deepcopy") == []


def test_a_models_save_given_a_step_is_no_file_write():
    # XPixelGroup/BasicSR: model.save(epoch, current_iter), a method that saves on rank 0
    assert lines(check("pytorch_basicsr/basicsr/train.py"), "unguarded_write") == []
    keras = ("model.save(epoch, current_iter)", "model.save(f'ckpt_{current_iter}.h5')")
    assert lines(check("pytorch_basicsr/basicsr/train.py", keras), "unguarded_write") == [187]


def test_an_address_given_by_position_is_named():
    # dmlc/dgl: init_process_group("nccl", "tcp://127.0.0.1:12347", ...)
    found = check("pytorch_dgl_graph_prediction.py")
    assert lines(found, "init_method_not_env") == [96]
    env = ('"tcp://127.0.0.1:12347"', '"env://"')
    assert lines(check("pytorch_dgl_graph_prediction.py", env), "init_method_not_env") == []


def test_a_launcher_option_left_at_none_turns_distribution_off():
    # open-mmlab/mmdetection tools/train.py: --launcher none|pytorch|slurm|mpi, default none
    found = check("pytorch_mmdet_train.py")
    assert lines(found, "distribution_disabled_by_flag") == [41]
    assert lines(found, "no_process_group") == []
    (what,) = [w for r, _, _, w in found if r == "distribution_disabled_by_flag"]
    assert "--launcher" in what and "'none'" in what


def test_a_split_is_unseeded_when_only_another_librarys_generator_is_seeded():
    # aws-samples sagemaker workshop, stable diffusion: torch.manual_seed, then datasets'
    # train_test_split (numpy's generator) on every rank
    found = check("pytorch_sagemaker_sd/train.py")
    assert lines(found, "seed_per_process") == [143]
    seeded = ("torch.manual_seed(args.seed)", "set_seed(args.seed)")
    assert lines(check("pytorch_sagemaker_sd/train.py", seeded), "seed_per_process") == []


def test_a_librarys_argument_dataclasses_accept_what_they_may_declare():
    # huggingface/trl reward modeling: HfArgumentParser((ScriptArguments, RewardConfig, ...))
    assert lines(check("hf_trl_reward_modeling.py"), "argv_rejected") == []


def test_a_path_defaulting_to_another_platforms_folder_is_named_where_it_is_written():
    # aws-samples sagemaker workshop, FSDP: --model_dir defaults to /opt/ml/model
    found = check("pytorch_sagemaker_fsdp/train.py")
    assert lines(found, "foreign_platform_path", "utils.py") == [57]
    local = ('default="/opt/ml/model"', 'default="outputs/model"')
    assert lines(check("pytorch_sagemaker_fsdp/train.py", local), "foreign_platform_path") == []
