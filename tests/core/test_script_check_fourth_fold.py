"""What the fourth fresh set (2026-11-27d, folded into the corpus) taught the script check: a
rank-0 file nothing reads back is no missing barrier, another library's Horovod callback and
optimizer may broadcast and average, a parameter named like a save is no write, one save in the
two branches of an `if` is one write, a device that follows the flag that turns distribution
off is that flag's problem, an address literal is named where it is spelled, and a variable
nothing in the plan sets (another platform's, a service's key) stops the ranks that require it.
Each is run on the corpus script it came from, as it is and with the fix its finding names."""

from __future__ import annotations

from tests.core.script_corpus import cases
from tui.core.spec import JobSpec
from tui.planning.script_check import check_source

Found = list[tuple[str, str, int | None, str]]


def check(file: str, *edits: tuple[str, str], env: dict[str, str] | None = None) -> Found:
    """(rule, file, line, what) of each finding on a corpus case, after `edits` to its script
    and with `env` added to the job's environment variables."""
    case = next(c for c in cases() if c.file == file)
    source = (case.folder / case.script).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    spec = JobSpec(**{**case.plan, "script": case.script, "env": env or {}})
    report = check_source(source, spec, case.script, case.gpus, case.folder)
    return [(f.rule, f.file, f.line, f.what) for f in report.findings]


def lines(found: Found, rule: str, file: str | None = None) -> list[int | None]:
    return sorted(
        (line for r, f, line, _ in found if r == rule and file in (None, f)),
        key=lambda n: n or 0,
    )


def test_a_rank_zero_log_no_rank_reads_back_needs_no_barrier():
    """stats.txt is written by rank 0; the later load is checkpoint.pth, another file."""
    assert lines(check("pytorch_barlowtwins_main.py"), "local_write_no_barrier") == []
    assert lines(check("pytorch_vicreg/main_vicreg.py"), "local_write_no_barrier") == []
    same = (
        "torch.load(args.checkpoint_dir / 'checkpoint.pth'",
        "torch.load(args.checkpoint_dir / 'stats.txt'",
    )
    assert lines(check("pytorch_barlowtwins_main.py", same), "local_write_no_barrier") == [80]


def test_an_address_literal_is_named_where_it_is_spelled():
    found = check("pytorch_barlowtwins_main.py")
    assert lines(found, "init_method_not_env") == [69]
    env = ("init_method=args.dist_url,", "init_method='env://',")
    assert lines(check("pytorch_barlowtwins_main.py", env), "init_method_not_env") == []


def test_another_librarys_horovod_callback_is_not_taken_for_nothing():
    found = check("horovod_tfra_movielens.py")
    assert lines(found, "horovod_no_broadcast") == []
    assert lines(found, "horovod_no_distributed_optimizer") == []
    assert lines(found, "unguarded_write") == []  # line 555 calls its own parameter (a model)


def test_one_save_in_the_two_branches_of_an_if_is_one_write():
    found = check("simclr_spijkervet/main.py")
    assert lines(found, "unguarded_write", "model.py") == [41]


def test_a_device_that_follows_the_flag_turning_distribution_off_is_that_flags_finding():
    found = check("pytorch_convai_gpt/train.py")
    assert lines(found, "distribution_disabled_by_flag") == [137]
    assert lines(found, "device_not_local_rank") == []


def test_another_platforms_variables_in_argument_defaults_stop_every_worker():
    found = check("tf_sagemaker_mnist.py")
    assert lines(found, "env_var_not_set") == [18, 19, 20, 21]
    what = next(w for r, _, line, w in found if r == "env_var_not_set" and line == 18)
    assert "SM_MODEL_DIR" in what and "KeyError" in what
    given = {k: "x" for k in ("SM_MODEL_DIR", "SM_CHANNEL_TRAINING", "SM_CURRENT_HOST")}
    given["SM_HOSTS"] = '["algo-1"]'
    assert lines(check("tf_sagemaker_mnist.py", env=given), "env_var_not_set") == []


def test_a_services_account_variables_stop_rank_zero():
    found = check("pytorch_sit/train.py")
    assert lines(found, "env_var_not_set") == [141, 142]
    given = {"ENTITY": "me", "PROJECT": "sit"}
    assert lines(check("pytorch_sit/train.py", env=given), "env_var_not_set") == []
    # `"WANDB_PROJECT" in os.environ and len(os.environ["WANDB_PROJECT"]) > 0`: tested first
    assert lines(check("hf_alpaca_lora/finetune.py"), "env_var_not_set") == []


def test_options_made_in_a_loop_over_a_config_file_are_that_files_keys():
    """`for k, v in config.items(): parser.add_argument(f"--{k}", default=v)`, config from
    config/config.yaml: --nodes defaults to 1, which turns distribution off, and dataset_dir
    to ./datasets, a node-local folder every process downloads into."""
    found = check("simclr_spijkervet/main.py")
    assert lines(found, "distribution_disabled_by_flag") == [163]
    assert "--nodes" in next(w for r, _, _, w in found if r == "distribution_disabled_by_flag")
    assert lines(found, "download_race") == [75]
    local = (
        "    else:\n        main(0, args)",
        "    else:\n        main(int(os.environ['LOCAL_RANK']), args)",
    )
    given = ("if args.nodes > 1", "if int(os.environ['WORLD_SIZE']) > 1")
    assert (
        lines(check("simclr_spijkervet/main.py", given, local), "distribution_disabled_by_flag")
        == []
    )
    kept = (
        "args.dataset_dir,\n            download=True",
        "args.dataset_dir,\n            download=False",
    )
    assert lines(check("simclr_spijkervet/main.py", kept), "download_race") == []


def test_a_parser_of_config_keys_rejects_the_plans_trainer_options():
    found = check("simclr_spijkervet/main_pl.py")
    assert lines(found, "argv_rejected") == [84]
    assert lines(found, "download_race") == [94]  # read on past the rejected command line
    known = ("args = parser.parse_args()", "args, _ = parser.parse_known_args()")
    assert lines(check("simclr_spijkervet/main_pl.py", known), "argv_rejected") == []


def test_a_rank_test_every_process_passes_guards_nothing():
    """`if args.local_rank in [-1, 0]:` with --local_rank left at -1: all 16 processes save."""
    found = check("pytorch_convai_gpt/train.py")
    assert lines(found, "unguarded_write", "train.py") == [255, 256, 257]  # to_json_file too
    ranked = (
        "    if args.local_rank in [-1, 0]:\n        pbar",
        "    if int(os.environ.get('RANK', 0)) == 0:\n        pbar",
    )
    assert lines(check("pytorch_convai_gpt/train.py", ranked), "unguarded_write", "train.py") == []
