"""What the twenty-fourth fresh set (2026-11-28x, folded into the corpus) taught the script
check: a strategy handed to an Estimator's RunConfig(train_distribute=…) builds the model_fn's
model under it; an image library's object saved by every rank (`img.save(path)`) is a write; a
name given its path in an annotated assignment (`exp_dir: Path = …`) is followed; a DeepSpeed
config the script's own arguments name (`--deepspeed_config configs/ds_config.json`) is the one
DeepSpeed checks. Run on the corpus scripts they came from, as they are and as a reader would
change them."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines


def test_a_strategy_given_to_an_estimators_config_needs_no_scope():
    # martyole/TensorHive examples/TensorFlow_parameters/train.py: model_fn builds the Keras
    # model; the Estimator calls it under RunConfig(train_distribute=strategy)
    file = "tf_tensorhive_ps_estimator.py"
    assert lines(check(file), "strategy_scope_missing") == []
    plain = check(
        file,
        (
            "config = tf.estimator.RunConfig(train_distribute=strategy)",
            "config = tf.estimator.RunConfig()",
        ),
    )
    assert lines(plain, "strategy_scope_missing") == [38]


def test_an_image_saved_by_every_rank_is_a_write():
    # eugene123tw/DreamDojo lam/model.py: log_images saves `Image.fromarray(…)` from every rank
    found = check("lightning_dreamdojo_lam/main.py")
    assert lines(found, "unguarded_write", "lam/model.py") == [151]


def test_a_path_given_in_an_annotated_assignment_is_followed():
    # LambdaLabsML/distributed-training-guide deepspeed/train_llm.py: `exp_dir: Path =
    # Path(args.save_dir) / …` with --save-dir defaulting to ../outputs, beside the job's folder
    file = "deepspeed_lambda_llm/train_llm.py"
    assert lines(check(file), "checkpoint_node_local") == [196]
    gathered = check(
        file, ('"--save-dir", default="../outputs"', '"--save-dir", default="outputs"')
    )
    assert lines(gathered, "checkpoint_node_local") == []


def test_a_deepspeed_config_the_scripts_arguments_name_is_checked():
    # matsuolab/deepspeed-tutorial-miyabi: `--deepspeed --deepspeed_config
    # configs/ds_config.json` with train_batch_size 10080 sized for 36 GPUs, at 16 ranks
    found = check("deepspeed_miyabi_imagenet/train.py")
    assert lines(found, "batch_not_divisible", "configs/ds_config.json") == [2]
