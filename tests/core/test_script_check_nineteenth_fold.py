"""What the twenty-fifth and twenty-sixth fresh sets (2026-11-28y, z, folded into the corpus)
taught the script check: a rank test every process passes guards nothing in the functions it
calls either (`if args.local_rank == 0: save_model(…)` with --local_rank left at 0); a table's
own writer (`log.to_csv(path)`) writes; arguments added through a name bound to add_argument
(`arg = parser.add_argument`) are the parser's; a parameter's default is the path it gives
(`def load_data(data_dir="./data")`); Keras' applications fetch their ImageNet weights into the
node's home folder; a cluster's /scratch, left as a variable's fallback, is a folder Azure ML
nodes lack. Run on the corpus scripts they came from, as they are and as a reader would change
them."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines


def test_a_rank_test_every_process_passes_guards_nothing_in_what_it_calls():
    # ArrowLuo/CLIP4Clip main_task_retrieval.py: save_model() under `if args.local_rank == 0:`
    # (torchrun passes no --local_rank: its default 0 holds in every process)
    file = "pytorch_clip4clip/main_task_retrieval.py"
    assert lines(check(file), "unguarded_write") == [227, 228]
    by_rank = (
        '            if args.local_rank == 0:\n                logger.info("Epoch',
        '            if torch.distributed.get_rank() == 0:\n                logger.info("Epoch',
    )
    assert lines(check(file, by_rank), "unguarded_write") == []


def test_a_tables_own_writer_writes():
    # FridayJK/google_landmark_retrieval_2020_1st_place_solution train_demo.py
    file = "pytorch_gldv2_effnet/torchImageRecognition/examples/train_demo.py"
    assert 235 in lines(check(file), "unguarded_write")
    kept = ("log.to_csv(", "print(")
    assert 235 not in lines(check(file, kept), "unguarded_write")


def test_arguments_added_through_a_bound_name_are_the_parsers():
    # selimsef/dfdc_deepfake_challenge train_classifier.py: `arg = parser.add_argument`
    found = check("pytorch_dfdc_classifier/training/pipelines/train_classifier.py")
    assert lines(found, "argv_rejected") == []
    assert lines(found, "unguarded_write") == [213, 218, 241, 247, 249]


def test_a_parameters_default_is_the_path_it_gives():
    # comet-ml/comet-examples: `def load_data(data_dir="./data")`, called as load_data()
    file = "pytorch_comet_ddp_cifar10.py"
    assert lines(check(file), "download_race") == [49, 53]
    mounted = ("load_data()", 'load_data("${{inputs.cifar}}")')
    assert lines(check(file, mounted), "download_race") == []


def test_keras_applications_fetch_their_weights_on_every_rank():
    # CSCfi/machine-learning-scripts tf2-pets-hvd: applications.VGG16(weights='imagenet')
    file = "horovod_csc_tf2_pets.py"
    assert lines(check(file), "download_race") == [163]
    untrained = ("VGG16(weights='imagenet'", "VGG16(weights=None")
    assert lines(check(file, untrained), "download_race") == []


def test_a_clusters_scratch_left_as_a_fallback_is_a_foreign_path():
    # CSCfi/machine-learning-scripts tf2-pets-mwms: DATADIR falls back to /scratch/project_xxx
    file = "tf_csc_pets_mwms.py"
    assert lines(check(file), "foreign_platform_path") == [61]
    local = ('"/scratch/project_xxx/data/"', '"data/"')
    assert lines(check(file, local), "foreign_platform_path") == []


def test_a_name_given_a_rank_call_holds_the_rank():
    # Alwaysproblem/k8s_docker_horovod model.py: `worker_index = hvd.rank()`, then
    # `if worker_index == 0:` around the config dump and model.save
    file = "horovod_k8s_deepfm/model.py"
    assert lines(check(file), "unguarded_write") == []
    unranked = ("worker_index = hvd.rank()", "worker_index = 0")
    assert lines(check(file, unranked), "unguarded_write") == [235, 262]


def test_one_pass_over_a_loader_with_its_own_sampler_needs_no_set_epoch():
    # tunib-ai/large-scale-lm-tutorials src/ddp.py: one loop over the loader, no epochs
    assert lines(check("pytorch_tunib_ddp/src/ddp.py"), "sampler_no_set_epoch") == []


def test_a_distributed_sampler_of_the_scripts_own_shards():
    # yxuansu/PandaGPT datasets/__init__.py: DistributedBatchSampler
    found = check("deepspeed_pandagpt/train_sft.py")
    assert lines(found, "no_distributed_sampler") == []


def test_a_flag_given_a_name_that_holds_a_rank_test_guards():
    # latent-diffusion-deepspeed: save_model(…, is_root=is_root_rank) returns unless is_root
    file = "deepspeed_latent_diffusion_ft/finetune.py"
    util = "latent_diffusion_deepspeed/train_util.py"
    assert lines(check(file), "unguarded_write", util) == []
    everyone = ("is_root=is_root_rank", "is_root=True")
    assert lines(check(file, everyone), "unguarded_write", util) == [48, 53]


def test_names_unpacked_from_a_call_are_no_longer_the_flags_defaults():
    # meituan/YOLOv6 tools/train.py: `args.local_rank, args.rank, args.world_size = get_envs()`
    found = check("pytorch_yolov6/tools/train.py")
    assert lines(found, "distribution_disabled_by_flag") == []
    assert 125 in lines(found, "rank_not_from_env")


def test_a_batch_a_flags_default_cannot_split_is_said_at_the_flag():
    # karpathy/llm.c train_gpt2.py: --total_batch_size 256 against 16 ranks x 4 x 64 tokens
    found = check("pytorch_llmc_train_gpt2.py")
    assert lines(found, "batch_not_divisible") == [553]
    assert lines(found, "default_runs_nothing") == []


def test_the_same_global_rank_used_as_a_device_in_several_functions_is_one_finding():
    # pytorch_t5_classical_translation train_ds.py: setup(rank) sets the device, evaluate(…, rank)
    # and train(…, rank) move batches to it; the blind adjudications count one problem
    file = "pytorch_t5_classical_translation/train_ds.py"
    assert lines(check(file), "device_not_local_rank") == [20]


def test_a_data_sets_save_to_disk_and_numpys_save_write():
    # ASCEND hf_ascend_wav2vec2/train.py: vectorized_datasets.save_to_disk(...) on every rank;
    # TorchSSL datasets/data_utils.py: np.save(dump_path, ...) of the labelled indices
    assert 234 in lines(check("hf_ascend_wav2vec2/train.py"), "unguarded_write")
    found = check("pytorch_torchssl_fixmatch/fixmatch.py")
    assert 65 in lines(found, "unguarded_write", "datasets/data_utils.py")


def test_a_method_nothing_names_and_no_framework_calls_does_not_run():
    # athena-team/athena horovod_main.py: the solver's decoding methods are named only by its
    # inference script, which the plan does not run; a Trainer's save_model and Lightning's
    # hooks are called by their framework, though nothing in the script names them
    found = check("horovod_athena_asr/athena/horovod_main.py")
    written = lines(found, "unguarded_write", "athena/solver.py")
    assert not {383, 384, 939, 940, 985, 986} & set(written)
    assert {70, 74} <= set(lines(check("hf_chatglm_tuning_lora.py"), "unguarded_write"))
