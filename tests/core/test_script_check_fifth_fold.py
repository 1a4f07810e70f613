"""What the fifth fresh set (2026-11-27e, folded into the corpus) taught the script check:
distribution switched off by an environment variable the plan does not set (read through a
text-to-bool helper, in a module global a function tests), a variable read with no default
handed straight to a call that fails on None, a backend chosen by a flag's default, an
accumulation the plan's ranks leave at nothing, and the plan's `--trainer.*` set aside by
`parse_known_args`. Each is run on the corpus script it came from, as it is and with the fix
its finding names."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines


def test_distribution_switched_off_by_an_unset_variable_names_it_and_its_fix_clears_it():
    # Azure/DistributedDeepLearning: _DISTRIBUTED = _str_to_bool(os.getenv("DISTRIBUTED",
    # "False")); hvd.init() inside main() under `if _DISTRIBUTED:`
    for file, line in (
        ("horovod_azure_imagenet_pytorch/imagenet_pytorch_horovod.py", 54),
        ("horovod_azure_imagenet_keras/imagenet_keras_horovod.py", 48),
    ):
        found = check(file)
        assert lines(found, "distribution_disabled_by_flag") == [line]
        (what,) = [w for r, _, _, w in found if r == "distribution_disabled_by_flag"]
        assert "DISTRIBUTED environment variable" in what and "'False'" in what
        on = check(file, env={"DISTRIBUTED": "True"})
        assert lines(on, "distribution_disabled_by_flag") == []


def test_a_variable_read_with_no_default_into_a_folder_call_is_required():
    found = check("horovod_azure_imagenet_pytorch/imagenet_pytorch_horovod.py")
    assert lines(found, "env_var_not_set") == [288]  # ImageFolder(os.getenv(...)): once
    (what,) = [w for r, _, _, w in found if r == "env_var_not_set"]
    assert "AZ_BATCHAI_INPUT_TRAIN" in what and "ImageFolder" in what
    given = check(
        "horovod_azure_imagenet_pytorch/imagenet_pytorch_horovod.py",
        env={"AZ_BATCHAI_INPUT_TRAIN": "/mnt/imagenet"},
    )
    assert lines(given, "env_var_not_set") == []
    # a default makes it the script's own choice
    defaulted = check(
        "horovod_azure_imagenet_pytorch/imagenet_pytorch_horovod.py",
        ('os.getenv("AZ_BATCHAI_INPUT_TRAIN")', 'os.getenv("AZ_BATCHAI_INPUT_TRAIN", "data")'),
    )
    assert lines(defaulted, "env_var_not_set") == []


def test_a_backend_chosen_by_a_flags_default_is_named_at_the_flag():
    # kubeflow katib's mnist: --backend defaults to dist.Backend.GLOO on a GPU plan
    found = check("pytorch_katib_mnist.py")
    assert lines(found, "gloo_on_gpu") == [188]
    nccl = ("default=dist.Backend.GLOO", "default=dist.Backend.NCCL")
    assert lines(check("pytorch_katib_mnist.py", nccl), "gloo_on_gpu") == []


def test_an_accumulation_the_plans_ranks_leave_at_nothing_stops_every_rank():
    # GaLore's torchrun_main.py: 512 // (256 * 16) == 0, then assert ... > 0
    found = check("pytorch_galore/torchrun_main.py")
    assert lines(found, "batch_not_divisible") == [152]
    (what,) = [w for r, _, _, w in found if r == "batch_not_divisible"]
    assert "is 0 on the plan's 16 ranks" in what


def test_the_plans_trainer_flags_set_aside_by_parse_known_args_leave_one_node():
    # CompVis/latent-diffusion: parse_known_args(), then Trainer.from_argparse_args(trainer_opt)
    found = check("lightning_latent_diffusion/main.py")
    assert lines(found, "trainer_shape_mismatch") == [660]
    strict = ("parser.parse_known_args()", "(parser.parse_args(), [])")
    assert (
        lines(check("lightning_latent_diffusion/main.py", strict), "trainer_shape_mismatch") == []
    )
