"""What the eighth fresh set (2026-11-27h, folded into the corpus) taught the script check: a
variable the script sets itself is not one the plan must set, a package's submodule reached as
an attribute (`tl.distributed.Trainer`) is read, a Trainer subclass of a helper module hands
the ranks to transformers, a library's own data-parallel class averages gradients, a model
built in `with strategy.scope()` inside `get_model()` is in scope, and rank, rendezvous and GPU
taken from mpi4py are wrong where no mpirun starts the processes. Each is run on the corpus
script it came from, as it is and with the change that makes it a finding."""

from __future__ import annotations

from tests.core.script_corpus import cases
from tests.core.test_script_check_fourth_fold import check, lines
from tui.core.spec import JobSpec
from tui.planning.script_check import check_source

DIFFUSION = "pytorch_improved_diffusion/scripts/image_train.py"
DIST_UTIL = "improved_diffusion/dist_util.py"


def test_a_variable_the_script_sets_itself_before_reading_it_is_not_the_plans_to_set():
    # BlinkDL/RWKV-LM train.py:120 sets RWKV_MY_TESTING from --my_testing; line 127 reads it
    script = "lightning_rwkv_v5/RWKV-v5/train.py"
    assert lines(check(script), "env_var_not_set") == []
    unset = ('os.environ["RWKV_MY_TESTING"] = args.my_testing', "pass")
    assert lines(check(script, unset), "env_var_not_set") == [127]
    # picotron sets HF_TOKEN from its config when the environment lacks one (line 74)
    assert lines(check("pytorch_picotron/train.py"), "env_var_not_set") == []


def test_a_packages_submodule_reached_as_an_attribute_is_read():
    # tensorlayer: `tl.distributed.Trainer(...)` runs hvd.init() in tensorlayer/distributed.py
    script = "horovod_tensorlayer_mnist/examples/distributed_training/"
    script += "tutorial_mnist_distributed_trainer.py"
    assert lines(check(script), "horovod_no_init") == []


def test_a_trainer_subclass_of_a_helper_module_makes_the_process_group():
    # LLaVA: train_mem.py calls train() in llava/train/train.py, whose LLaVATrainer(Trainer)
    # is defined in llava/train/llava_trainer.py
    assert lines(check("hf_llava_pretrain/llava/train/train_mem.py"), "no_process_group") == []


def test_a_librarys_own_data_parallel_class_is_a_wrap():
    found = check("pytorch_picotron/train.py")
    assert lines(found, "no_ddp_wrap") == []
    unwrapped = ("model = DataParallelBucket(model)", "model = model")
    assert lines(check("pytorch_picotron/train.py", unwrapped), "no_ddp_wrap") == [None]


def test_a_model_built_in_the_scope_inside_its_own_function_is_in_scope():
    # tensorflow/cloud: get_model() builds the Sequential in `with mirrored_strategy.scope():`
    # and compiles it after the block
    assert lines(check("tf_cloud_save_and_load.py"), "strategy_scope_missing") == []


def test_rank_rendezvous_and_gpu_from_mpi_are_wrong_without_mpirun():
    found = check(DIFFUSION)
    assert lines(found, "hardcoded_master", DIST_UTIL) == [36]
    assert lines(found, "rank_not_from_env", DIST_UTIL) == [37]
    assert lines(found, "device_not_local_rank", DIST_UTIL) == [50]
    rule_of = {r: what for r, f, _, what in found if f == DIST_UTIL}
    assert "0 in every process that mpirun did not start" in rule_of["rank_not_from_env"]


def test_the_same_mpi_code_under_an_mpi_plan_is_right():
    case = next(c for c in cases() if c.file == DIFFUSION)
    spec = JobSpec(**{**case.plan, "script": case.script, "framework": "horovod"})
    source = (case.folder / case.script).read_text(encoding="utf-8")
    report = check_source(source, spec, case.script, True, case.folder)
    mpi = [f for f in report.findings if f.file == DIST_UTIL]
    assert not [f for f in mpi if "MPI" in f.what], [f.what for f in mpi]
