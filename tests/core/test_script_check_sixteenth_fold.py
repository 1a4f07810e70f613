"""What the eighteenth fresh set (2026-11-28r, folded into the corpus) taught the script check:
a parameter given a rank test by keyword holds the rank (`is_root=(hvd.rank() == 0)`); a
method of a class nothing builds never runs (whatever other class has a method of that name); a
class is built by its name (so a constructor that leaves `download=False` never downloads); a
function imported under another name is still the one called; a plain name is the module's own
function; and what only a helper's `__main__` block names never runs. Run on the corpus scripts
they came from, as they are and as a reader would change them."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

OFA = "horovod_ofa_progressive/train_ofa_net.py"
MANAGERS = "ofa/imagenet_classification/run_manager/"


def test_a_parameter_given_a_rank_test_by_keyword_guards_what_it_tests():
    # mit-han-lab/once-for-all: DistributedRunManager(…, is_root=(hvd.rank() == 0)), whose
    # writes sit under `if self.is_root:`
    found = check(OFA)
    assert lines(found, "unguarded_write", MANAGERS + "distributed_run_manager.py") == []
    every_rank = check(OFA, ("is_root=(hvd.rank() == 0)", "is_root=True"))
    assert lines(every_rank, "unguarded_write", MANAGERS + "distributed_run_manager.py")


def test_a_method_of_a_class_nothing_builds_never_runs():
    # the same package's single-process RunManager has save_model and write_log too; the
    # script builds only the distributed one
    assert lines(check(OFA), "unguarded_write", MANAGERS + "run_manager.py") == []
    built = check(OFA, ("DistributedRunManager(\n", "RunManager(\n"))
    assert lines(built, "unguarded_write", MANAGERS + "run_manager.py")


def test_a_constructor_that_leaves_download_false_never_downloads():
    # kakaobrain/fast-autoaugment: ImageNet(root=…, transform=…) with `download=False` by
    # default; only download() reaches the meta file's torch.save
    found = check("pytorch_fast_autoaugment/FastAutoAugment/train.py")
    assert lines(found, "unguarded_write", "FastAutoAugment/imagenet.py") == []


def test_a_function_imported_under_another_name_is_the_one_called():
    # kakaobrain/rq-vae-transformer: `from .dist import initialize as dist_init` starts the
    # process group
    assert lines(check("pytorch_rqvae_stage1/main_stage1.py"), "no_process_group") == []


def test_a_plain_name_is_the_modules_own_function_and_a_helpers_main_names_nothing():
    # Diva2004-cyber/komputasi-paralel-ddp-lenet5: train_ddp.py saves under `if rank == 0:` with
    # its own save_checkpoint(); train_single.py (imported for a helper) has another, which only
    # its own `__main__` block reaches
    found = check("pytorch_lenet5_cpu_ddp/train_ddp.py")
    assert lines(found, "unguarded_write", "train_single.py") == []
    assert lines(found, "unguarded_write", "train_ddp.py") == []
    unguarded = check(
        "pytorch_lenet5_cpu_ddp/train_ddp.py",
        (
            "        if rank == 0:\n            save_checkpoint(",
            "        if True:\n            save_checkpoint(",
        ),
    )
    assert lines(unguarded, "unguarded_write", "train_ddp.py") == [197]


def test_a_flag_read_through_a_function_returning_the_parse_turns_its_branch_off():
    # ultralytics/yolov5 train.py: `return parser.parse_known_args()[0] if known else
    # parser.parse_args()`, `opt = parse_opt()`: the `--evolve` branch the plan does not give
    # never writes evolve_population.yaml, nor print_mutation's file in utils/general.py; and
    # is_writeable(dir) without `test=True` returns before its test file is opened
    found = check("pytorch_yolov5/train.py")
    assert 794 not in lines(found, "unguarded_write", "train.py")
    assert not {139, 831} & set(lines(found, "unguarded_write", "utils/general.py"))


def test_a_call_an_earlier_operand_settles_never_runs():
    # ultralytics/yolov5 train.py: `if opt.resume and not check_comet_resume(opt) and …`, with
    # --resume not given (its value as the test reads it, before main reassigns it): Comet's
    # hyp.yaml write in set_opt_parameters is never reached
    found = check("pytorch_yolov5/train.py")
    assert lines(found, "unguarded_write", "utils/loggers/comet/comet_utils.py") == []
    resumed = check(
        "pytorch_yolov5/train.py",
        ('default=False, help="resume most', 'default=True, help="resume most'),
    )
    assert lines(resumed, "unguarded_write", "utils/loggers/comet/comet_utils.py") == [94]


def test_a_plain_call_is_the_function_its_module_imports_not_another_of_that_name():
    # fundamentalvision/Deformable-DETR: datasets/__init__.py calls coco_panoptic's `build` as
    # `build_coco_panoptic`, only `if args.dataset_file == 'coco_panoptic'`; the models
    # package's own `build(args)` is another function
    detr = "pytorch_deformable_detr/main.py"
    panoptic = "datasets/coco_panoptic.py"
    assert lines(check(detr), "default_path_none", panoptic) == []
    chosen = ("default='coco')", "default='coco_panoptic')")
    assert lines(check(detr, chosen), "default_path_none", panoptic) == [91]


def test_a_caller_the_plan_never_reaches_needs_no_guard():
    # autonomousvision/transfuser train.py: `if parallel == True: … if rank == 0:
    # trainer.save()` and `else: trainer.save()`, with --parallel_training 1 in the plan
    found = check("pytorch_transfuser/train.py")
    assert lines(found, "unguarded_write") == []
    unguarded = check(
        "pytorch_transfuser/train.py", ("            if (rank == 0):\n", "            if True:\n")
    )
    assert lines(unguarded, "unguarded_write") == [384, 385]


def test_a_literal_that_keeps_every_process_group_off_is_no_process_group():
    # bubbliiiing/yolov4-pytorch train.py: `distributed = False`, a switch the comment above it
    # asks the user to set; init_process_group sits under `if distributed:`
    yolo = "pytorch_yolov4_bubbliiiing/train.py"
    assert lines(check(yolo), "no_process_group") == [None]
    assert (
        lines(
            check(yolo, ("    distributed     = False", "    distributed     = True")),
            "no_process_group",
        )
        == []
    )
