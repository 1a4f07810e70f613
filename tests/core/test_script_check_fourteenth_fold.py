"""What the sixteenth fresh set (2026-11-28p, folded into the corpus) taught the script check:
a caller that leaves the parameter a write needs at None never reaches it; a rank test may be
written with `or` inside a helper; the save methods of another library's objects write on every
rank that calls them; a copy of a config file into a shared folder is a write too; a sampler
given the local rank as its rank, and a dataset shuffled unseeded before the Trainer shards it,
cut overlapping shares. Run on the corpus scripts they came from, as they are and changed as a
reader would change them."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

MINIMIND = "pytorch_minimind_pretrain/trainer/train_pretrain.py"
UTILS = "trainer/trainer_utils.py"


def test_a_caller_that_passes_no_model_never_reaches_the_save():
    # jingyaogong/minimind: lm_checkpoint(cfg, model=None, …) saves only `if model is not None:`;
    # the save call is under `is_main_process()`, the resume call passes no model (a load)
    assert lines(check(MINIMIND), "unguarded_write", UTILS) == []
    loads_with_a_model = (
        "ckp_data = lm_checkpoint(lm_config, weight=args.save_weight, save_dir=",
        "ckp_data = lm_checkpoint(lm_config, weight=args.save_weight, model=model, save_dir=",
    )
    assert lines(check(MINIMIND, loads_with_a_model), "unguarded_write", UTILS) == [76, 104]


def test_a_rank_test_written_with_or_in_a_helper_guards():
    # microsoft/AzureML-BERT: check_write_log() returns `dist.get_rank() == 0 or not multi_gpu`
    assert lines(check("pytorch_azureml_bert/train.py"), "unguarded_write") == []
    always = (
        "return dist.get_rank() == 0 or not use_multigpu_with_single_device_per_process",
        "return True",
    )
    assert lines(check("pytorch_azureml_bert/train.py", always), "unguarded_write") == [19, 497]


def test_another_librarys_objects_save_on_every_rank():
    # dmlc/gluon-cv (Horovod + MXNet): net = get_model(…), trainer = hvd.DistributedTrainer(…)
    script = "horovod_mxnet_gluoncv_imagenet.py"
    assert lines(check(script), "unguarded_write") == [516, 517, 522, 523]
    guarded = (
        "        if args.save_frequency and (epoch + 1) % args.save_frequency == 0:",
        "        if rank == 0 and args.save_frequency and (epoch + 1) % args.save_frequency == 0:",
    )
    final = (
        "    evaluate(epoch)\n\n    net.save_parameters(",
        "    evaluate(epoch)\n    if rank != 0:\n        return\n    net.save_parameters(",
    )
    assert lines(check(script, guarded, final), "unguarded_write") == []


def test_a_config_copied_into_the_log_folder_by_every_rank_is_a_write():
    # yl4579/StyleTTS2: shutil.copy(config_path, log_dir/…) before the Accelerator, no rank test
    script = "hf_styletts2_first/train_first.py"
    assert lines(check(script), "unguarded_write") == [49]
    # pytorch/examples imagenet: the best checkpoint copied from the file just saved is one write
    assert lines(check("deepspeed_imagenet/main.py"), "unguarded_write") == [407]


def test_a_sampler_given_the_local_rank_as_its_rank_reads_the_first_nodes_shares():
    # OpenLMLab/LOMO: DistributedSampler(…, num_replicas=world_size, rank=args.local_rank)
    found = check("pytorch_lomo/src/train_lomo.py")
    assert lines(found, "rank_not_from_env", "src/lomo_trainer.py") == [330, 362]


def test_an_unseeded_dataset_shuffle_before_the_trainer_orders_each_rank_its_own_way():
    # Facico/Chinese-Vicuna: train_val["train"].shuffle() before transformers.Trainer shards it
    script = "hf_chinese_vicuna_lora.py"
    assert lines(check(script), "seed_per_process") == [238]  # not the validation data's (239)
    seeded = ('train_val["train"].shuffle()', 'train_val["train"].shuffle(seed=42)')
    assert lines(check(script, seeded), "seed_per_process") == []
