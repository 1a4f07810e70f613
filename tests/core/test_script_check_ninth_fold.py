"""What the ninth fresh set (2026-11-27i, folded into the corpus) taught the script check:
torch.distributed over the ranks mpirun starts is checked as torch (not as a Horovod script
missing `hvd.init()`), gloo is right for a model kept on the CPU, a script that trains nothing
needs no DDP wrap, a Trainer prepares what it trains beside an Accelerator used for an index,
a library's `launch(…, dist_url=…)` makes the process group, `saver.save(…)` does not call the
script's own `save()`, and `device_map` given the global rank names a GPU other nodes lack. Each
is run on the corpus script it came from, as it is and with the change that makes it a
finding."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

MPI_GLOO = "pytorch_optuna_mpi_gloo.py"


def test_torch_distributed_over_mpirun_is_checked_as_torch_not_as_horovod():
    # optuna/optuna-examples: RANK from OMPI_COMM_WORLD_RANK, MASTER_ADDR set to 127.0.0.1
    found = check(MPI_GLOO)
    assert lines(found, "horovod_no_init") == []
    assert lines(found, "hardcoded_master") == [167]
    # openai/consistency_models' dist_util under the same Horovod plan
    assert lines(check("pytorch_consistency_edm/scripts/edm_train.py"), "horovod_no_init") == []


def test_gloo_is_right_for_a_model_kept_on_the_cpu():
    assert lines(check(MPI_GLOO), "gloo_on_gpu") == []
    on_gpu = ('DEVICE = torch.device("cpu")', 'DEVICE = torch.device("cuda")')
    assert lines(check(MPI_GLOO, on_gpu), "gloo_on_gpu") == [170]


def test_a_script_that_trains_nothing_needs_no_wrap():
    # modal-labs/multinode-training-guide: an all-reduce benchmark, no model
    assert lines(check("pytorch_modal_allreduce_bench.py"), "no_ddp_wrap") == []


def test_a_trainer_beside_an_accelerator_used_for_an_index_prepares_itself():
    # bigcode-project/starcoder finetune.py: Accelerator().process_index as the device_map
    found = check("hf_starcoder_finetune.py")
    assert lines(found, "accelerate_not_prepared") == []
    assert lines(found, "device_not_local_rank") == [241]
    local = ("Accelerator().process_index", "Accelerator().local_process_index")
    assert lines(check("hf_starcoder_finetune.py", local), "device_not_local_rank") == []


def test_a_librarys_launch_given_the_rendezvous_makes_the_process_group():
    script = "pytorch_detectron2_plain/tools/plain_train_net.py"
    assert lines(check(script), "no_process_group") == []


def test_an_objects_save_method_is_not_a_call_of_the_scripts_own_save():
    # nshepperd/gpt-2 train-horovod.py: save() (which calls saver.save) runs under hvd.rank() == 0
    script = "horovod_gpt2_nshepperd/train-horovod.py"
    assert lines(check(script), "unguarded_write") == []
    unguarded = ("            if hvd.rank() == 0:\n                save()", "            save()")
    assert 137 in lines(check(script, unguarded), "unguarded_write")
