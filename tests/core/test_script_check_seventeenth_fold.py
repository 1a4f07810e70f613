"""What the twenty-first to twenty-third fresh sets (2026-11-28u, v, w, folded into the corpus)
taught the script check: Horovod's collectives called by hand in a helper broadcast and average
(`hvd.broadcast_`, `hvd.allreduce_`); an object bound again under a rank test (`model_saver =
NoOp()` off rank 0) does its work on one rank; `self.save()` in one class does not call another
class's `save`; what a data set's `__getitem__` writes is one example's cache; arguments set
again from a config file (`setattr(args, k, v)`) leave no default provable; one pass over a
loader has no epoch to reshuffle; `cuda` after `torch.cuda.set_device(gpu)` is that GPU;
Seq2SeqTrainingArguments' own flags; a Hydra parse is where the decorated function is called;
one statement is said once per rule; a parameter given a rank predicate's outcome
(`save_to_disk=comm.is_main_process()`) holds a rank test. Run on the corpus scripts they came
from, as they are and as a reader would change them."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

HERO = "horovod_hero_tvqa/train_videoQA.py"
UNITER = "horovod_uniter_vqa/train_vqa.py"


def test_collectives_called_by_hand_in_a_helper_broadcast_and_average():
    # linjieli222/HERO: broadcast_tensors(...) and all_reduce_and_rescale_tensors(...) of
    # utils/distributed.py call hvd.broadcast_ and hvd.allreduce_
    found = check(HERO)
    assert lines(found, "horovod_no_broadcast") == []
    assert lines(found, "horovod_no_distributed_optimizer") == []
    unbroadcast = check(
        HERO, ("    broadcast_tensors([p.data for p in model.parameters()], 0)", "    pass")
    )
    assert lines(unbroadcast, "horovod_no_broadcast") == [None]


def test_an_object_bound_again_under_a_rank_test_writes_on_one_rank():
    # HERO: `if hvd.rank() == 0: model_saver = ModelSaver(…) else: model_saver = NoOp()`; the
    # TrainingRestorer's own `self.save()` is not ModelSaver.save's caller
    assert 131 not in lines(check(HERO), "unguarded_write", "utils/save.py")
    every_rank = check(HERO, ("    if hvd.rank() == 0:\n", "    if True:\n"))
    assert 131 in lines(every_rank, "unguarded_write", "utils/save.py")


def test_what_a_data_sets_getitem_writes_is_one_examples_cache():
    # daniilrobnikov/vits2 and myshell-ai/MeloTTS: get_audio(filename) saves `.spec.pt` beside
    # its `.wav`; OpenLMLab/LOMO's data set saves the whole preprocessed split from __init__
    assert lines(check("pytorch_vits2_ljs/train.py"), "unguarded_write", "data_utils.py") == []
    melo = check("pytorch_melotts/melo/train.py")
    assert lines(melo, "unguarded_write", "melo/data_utils.py") == []
    lomo = check("pytorch_lomo/src/train_lomo.py")
    assert lines(lomo, "unguarded_write", "src/mydatasets.py") == [95]


def test_arguments_set_again_from_a_config_file_leave_no_default_provable():
    # ChenRocks/UNITER: parse_with_config sets every key of --config's JSON on the arguments,
    # --model_config among them; parsed plainly, its None default reaches open()
    assert lines(check(UNITER), "default_path_none") == []
    plain = check(UNITER, ("args = parse_with_config(parser)", "args = parser.parse_args()"))
    assert lines(plain, "default_path_none", "utils/save.py") == [28]


def test_one_pass_over_a_shuffled_loader_has_no_epoch_to_reshuffle():
    # intel's ipex/oneCCL CIFAR example: one `for … in enumerate(train_loader)` at the top
    script = "pytorch_ipex_ccl_cifar_cpu.py"
    assert lines(check(script), "sampler_no_set_epoch") == []
    looped = check(
        script,
        (
            "for batch_idx, (data, target) in enumerate(train_loader):\n",
            "for epoch in range(10):\n"
            "  for batch_idx, (data, target) in enumerate(train_loader):\n",
        ),
    )
    assert lines(looped, "sampler_no_set_epoch") == [33]


def test_cuda_after_the_gpu_is_set_from_a_value_is_that_gpu():
    # a Vertex AI spawn example: `torch.cuda.set_device(gpu)` then `model.to(args.device)` with
    # 'cuda': the spawn index's GPU, not GPU 0 for all
    script = "pytorch_vertex_resnet_spawn.py"
    assert lines(check(script), "device_not_local_rank") == []
    unset = check(script, ("  torch.cuda.set_device(gpu)\n", "  pass\n"))
    assert lines(unset, "device_not_local_rank")


def test_seq2seq_training_arguments_take_their_own_flags():
    # yizhongw/Tk-Instruct: NITrainingArguments(Seq2SeqTrainingArguments) is given
    # --predict_with_generate and --generation_max_length, fields of Seq2SeqTrainingArguments
    assert lines(check("hf_tk_instruct/src/run_s2s.py"), "argv_rejected") == []
    typo = check(
        "hf_tk_instruct/src/run_s2s.py",
        ("NITrainingArguments(Seq2SeqTrainingArguments)", "NITrainingArguments(TrainingArguments)"),
    )
    assert lines(typo, "argv_rejected") == [259]


def test_a_hydra_parse_is_where_the_decorated_function_is_called():
    # kuleshov-group/mdlm: `@hydra.main(…)` on line 187, `main()` on line 206, where Hydra's
    # argparse meets the plan's `--trainer.num_nodes 2` and stops the job
    assert lines(check("lightning_mdlm/main.py"), "argv_rejected") == [206]


def test_one_statement_is_said_once_per_rule():
    # myshell-ai/MeloTTS: init_process_group(…, rank=local_rank) on line 53, reached by two of
    # the rank rules' paths; the user reads it once
    found = lines(check("pytorch_melotts/melo/train.py"), "rank_not_from_env")
    assert found == sorted(set(found)) and 53 in found


def test_a_parameter_given_a_rank_predicates_outcome_guards_what_it_tests():
    # JDAI-CV/fast-reid (2026-11-28w): Checkpointer(…, save_to_disk=comm.is_main_process()),
    # whose save returns early `if not self.save_dir or not self.save_to_disk`
    script = "pytorch_fastreid/tools/train_net.py"
    assert 95 not in lines(check(script), "unguarded_write", "fastreid/utils/checkpoint.py")
