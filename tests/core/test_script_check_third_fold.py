"""What the third fresh set (2026-11-27c, folded into the corpus) taught the script check: a loop
only rank 0 leaves, files local rank 0 writes that its node reads with no barrier, an engine
never stepped, a rendezvous timeout of seconds across nodes, an EMA copy of the wrapped model,
and an option the parser reads as another's abbreviation. Each rule is run on the corpus
script it came from, as it is and with the fix its finding names."""

from __future__ import annotations

from tests.core.script_corpus import SCRIPTS, cases
from tui.core.spec import JobSpec
from tui.planning.script_check import check_source


def check(file: str, *edits: tuple[str, str]) -> list[tuple[str, int | None, str, str]]:
    """(rule, line, what, fix) of each finding on a corpus case, after `edits` to its script."""
    case = next(c for c in cases() if c.file == file)
    source = (case.folder / case.script).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    spec = JobSpec(**{**case.plan, "script": case.script})
    report = check_source(source, spec, case.script, True, case.folder)
    return [(f.rule, f.line, f.what, f.fix) for f in report.findings]


def lines(found: list[tuple[str, int | None, str, str]], rule: str) -> list[int | None]:
    return [line for r, line, _, _ in found if r == rule]


def test_a_loop_only_rank_zero_leaves_is_named_at_its_test():
    file = "deepspeed_cs336/cs336_basics/solutions/_train_model.py"
    found = check(file)
    assert lines(found, "collective_on_one_rank") == [97]
    what = next(w for r, _, w, _ in found if r == "collective_on_one_rank")
    assert "15 ranks" in what and "hangs" in what
    shared = ("<= config.training.target_loss and is_main:", "<= config.training.target_loss:")
    assert lines(check(file, shared), "collective_on_one_rank") == []


def test_files_local_rank_zero_writes_and_its_node_reads_need_a_barrier():
    file = "horovod_monai_unet.py"
    found = check(file)
    assert lines(found, "local_write_no_barrier") == [82]
    fix = next(f for r, _, _, f in found if r == "local_write_no_barrier")
    assert "barrier" in fix
    waited = (
        '    images = sorted(glob(os.path.join(args.dir, "img*.nii.gz")))',
        "    hvd.allreduce(torch.tensor(0))\n"
        '    images = sorted(glob(os.path.join(args.dir, "img*.nii.gz")))',
    )
    assert lines(check(file, waited), "local_write_no_barrier") == []


def test_joining_the_process_group_waits_for_the_writer():
    """The DDP twin of the script above joins the group between the write and the read."""
    assert lines(check("pytorch_monai_unet_ddp.py"), "local_write_no_barrier") == []


def test_an_engine_trained_with_loss_backward_is_never_stepped():
    file = "deepspeed_sagemaker_llama2/train.py"
    found = check(file)
    assert lines(found, "engine_step_missing") == [161]
    fix = next(f for r, _, _, f in found if r == "engine_step_missing")
    assert "model.backward(loss)" in fix and "model.step()" in fix
    stepped = ("      loss.backward()\n", "      model.backward(loss)\n      model.step()\n")
    assert lines(check(file, stepped), "engine_step_missing") == []


def test_a_rendezvous_timeout_of_seconds_is_too_short_across_nodes():
    file = "pytorch_elastic_imagenet.py"
    assert lines(check(file), "init_timeout_too_short") == [157]
    longer = ("timeout=timedelta(seconds=10)", "timeout=timedelta(minutes=30)")
    assert lines(check(file, longer), "init_timeout_too_short") == []


def test_an_ema_copy_of_the_prepared_model_is_a_copy_of_the_wrapper():
    file = "hf_diffusers_unconditional.py"
    found = check(file)
    assert lines(found, "wrapped_model_deepcopy") == [279]
    fix = next(f for r, _, _, f in found if r == "wrapped_model_deepcopy")
    assert "before the wrap" in fix
    source = (SCRIPTS / file).read_text(encoding="utf-8")
    ema = next(s for s in source.splitlines(keepends=True) if "ema_model = EMAModel(" in s)
    prepared = "    model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare("
    before = [(ema, ""), (prepared, ema + prepared)]
    assert lines(check(file, *before), "wrapped_model_deepcopy") == []


def test_an_option_read_as_another_options_abbreviation_says_so():
    file = "deepspeed_sagemaker_llama2/train.py"
    found = check(file)
    what, fix = next((w, f) for r, line, w, f in found if r == "argv_rejected" and line == 87)
    assert "abbreviation of --deepspeed_config" in what
    assert "allow_abbrev=False" in fix


def test_a_save_into_memory_or_under_the_local_rank_variable_is_no_shared_write():
    """torch.save into io.BytesIO() (to broadcast) writes no file; `device_id == 0` with
    device_id = int(os.environ["LOCAL_RANK"]) lets one process per node through."""
    file = "pytorch_elastic_imagenet.py"
    assert not {368, 413} & set(lines(check(file), "unguarded_write"))
    to_disk = ("        with io.BytesIO() as f:\n", "        with open('blob.pt', 'wb') as f:\n")
    unguarded = (
        "        if device_id == 0:\n            save_checkpoint(",
        "        if True:\n            save_checkpoint(",
    )
    assert {368, 413} <= set(lines(check(file, to_disk, unguarded), "unguarded_write"))
