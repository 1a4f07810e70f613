"""What a line of a training log says went wrong: the doctor's causes, their patterns and fixes.

Each cause's lines weigh by *tier* when several ranks complain (the line rules are in
`doctor_rules`, framework signatures in `signatures`):

- `ROOT`: a failure of its own (out of memory, a missing module, a Python exception);
- `VERDICT`: a launcher's word that a process died of a signal (SIGKILL, SIGSEGV) — strong, but
  a rank's own exception printed earlier is the better evidence;
- `TIMEOUT`: a collective that timed out — usually because *another* rank never joined it;
- `ECHO`: what every surviving rank prints once a peer is gone (connection reset, communicator
  aborted, `mpirun noticed…`, a rendezvous that waits for a rank that never comes);
- `FAILURE`: proof that something failed without saying what (a non-zero exit, an uncaught
  exception that only reports another process, a worker that died): `unknown_failure`, never
  "healthy".

The fixes quote the Azure ML distributed-training guide and the frameworks' own docs.
"""

from __future__ import annotations

from tui.logs.platform_fixes import AZUREML_FIXES

ROOT, VERDICT, TIMEOUT, ECHO, FAILURE = 0, 1, 2, 3, 4

PLATFORM = (
    "job_rejected",
    "image_pull_failed",
    "environment_build_failed",
    "data_access_failed",
    "capacity_or_quota",
    "node_preempted",
    "node_failure",
    "job_time_limit",
    "azureml_system_error",
)
"""Azure ML's own failures, most specific first (the generic system error last): a platform
cause outranks what the processes printed after it (`platform_rules`)."""

CAUSES = (
    "nccl_timeout",
    "cuda_oom",
    "host_oom_killed",
    "rendezvous_timeout",
    "address_in_use",
    "nccl_system_error",
    "world_size_mismatch",
    "import_error",
    "user_code_error",
    "mpi_error",
    "segfault",
    "illegal_instruction",
    "abort",
    "tf_cluster_error",
    "script_arguments",
    "disk_full",
    *PLATFORM,
    "hang",
    "unknown_failure",
    "none",
    "not_proven",
)
NOT_PROVEN = "not_proven"
"""Not a cause: no failure found, and no proof of health either (`diagnosis`)."""


GUIDE = "https://learn.microsoft.com/azure/machine-learning/how-to-train-distributed-gpu"
FIXES: dict[str, str] = {
    "nccl_timeout": (
        "A collective waited past its timeout because a rank never joined it: look at the "
        "culprit rank's log just before the timeout (a slow or stuck data loader, an "
        "`if rank == 0:` branch that runs a collective or a long save on one rank only, "
        "uneven batches). Make every rank "
        "call the same collectives in the same order; for a long rank-0-only step raise "
        "`init_process_group(timeout=timedelta(minutes=N))`; set `TORCH_NCCL_TRACE_BUFFER_SIZE` "
        "and `TORCH_DISTRIBUTED_DEBUG=DETAIL` to see which collective each rank is in "
        "(https://pytorch.org/docs/stable/distributed.html#debugging-torch-distributed-applications)."
    ),
    "cuda_oom": (
        "The GPU ran out of memory: lower the per-GPU batch size (keep the global batch with "
        "gradient accumulation), enable mixed precision or activation checkpointing, or shard the "
        "model (FSDP, DeepSpeed ZeRO); `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` helps "
        "fragmentation (https://pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage). "
        "On Azure ML a larger GPU SKU is the other way out."
    ),
    "host_oom_killed": (
        "The process was killed with SIGKILL, which is almost always the kernel's out-of-memory "
        "killer: host RAM ran out (every rank holds its own copy of what it loads). Load data "
        "lazily, lower DataLoader `num_workers`, or use a VM size with more memory; a DataLoader "
        "killed for shared memory needs a larger `shm_size` on the Azure ML job "
        f"({GUIDE})."
    ),
    "rendezvous_timeout": (
        "The ranks never all met: one could not reach MASTER_ADDR:MASTER_PORT or never started. "
        "Check that every node starts the same command with the same world size, that the "
        "master's port is open between nodes, and that the node count matches `instance_count`; "
        "on Azure ML let the PyTorch distribution set MASTER_ADDR/MASTER_PORT "
        f"({GUIDE}; https://pytorch.org/docs/stable/elastic/run.html)."
    ),
    "address_in_use": (
        "The rendezvous port is taken (another job or a leftover process on the same machine): "
        "stop the old process or choose a free MASTER_PORT (`torchrun --master_port`, "
        "`--rdzv-endpoint host:0` picks one). On Azure ML leave MASTER_PORT to the distribution "
        "and do not start a second launcher inside the job "
        f"({GUIDE})."
    ),
    "nccl_system_error": (
        "NCCL failed to set up or run its transport: rerun with `NCCL_DEBUG=INFO` and read the "
        "first NCCL WARN. Usual fixes: `NCCL_SOCKET_IFNAME` naming the right interface, "
        "`NCCL_IB_DISABLE=1` on VMs without InfiniBand, a larger shared memory (`shm_size`), and "
        "matching NCCL/CUDA versions on every node "
        "(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html; "
        f"{GUIDE})."
    ),
    "world_size_mismatch": (
        "Ranks disagree on the world: a RANK outside 0..WORLD_SIZE-1, two ranks on one GPU, or a "
        "world size different from what the checkpoint or config expects. Make WORLD_SIZE = nodes "
        "× processes per node, leave RANK/WORLD_SIZE to the launcher (do not hard-code them), and "
        "keep one process per GPU "
        f"({GUIDE})."
    ),
    "import_error": (
        "A module the script imports is not in the job's environment: add the package to the "
        "environment (conda file or image) and pin its version, or put the module in the code "
        "folder that is uploaded; every node runs the same environment, so one missing package "
        f"fails every rank ({GUIDE})."
    ),
    "user_code_error": (
        "The training script raised an exception on this rank: the evidence line is its message "
        "and the traceback above it in the same log shows where (a traceback cut before its "
        "message: the full log has it). A CUDA `device-side assert triggered` (a kernel's "
        "`Assertion … failed`) is the script's data too: most often a label outside "
        "0..num_classes-1 (`t >= 0 && t < n_classes`) or an index past a tensor's size; check "
        "the labels against the model's output size and rerun with `CUDA_LAUNCH_BLOCKING=1` for "
        "the line. Fix the script"
        " and rehearse with `dtrain-tui submit --target local` before the cloud run."
    ),
    "mpi_error": (
        "The MPI launch failed (or a process died and mpirun stopped the others): check the slot "
        "count (`process_count_per_instance` = GPUs per node), that mpirun and the ranks use the "
        "same MPI, and read the first rank that failed "
        f"(https://www.open-mpi.org/faq/?category=running; {GUIDE})."
    ),
    "segfault": (
        "A process crashed in native code (SIGSEGV or SIGBUS): usually mismatched CUDA/NCCL/"
        "framework builds or a too-small `/dev/shm` for DataLoader workers. Pin matching "
        "versions, raise `shm_size` on the Azure ML job, and rerun with "
        "`PYTHONFAULTHANDLER=1` to get the Python stack "
        f"({GUIDE})."
    ),
    "illegal_instruction": (
        "A process died of SIGILL (illegal instruction): a binary built for a newer CPU than the "
        "VM's, e.g. a wheel or image compiled for AVX-512 or AMX (or a source build with "
        "`-march=native` on another machine) run on an older VM size. Install the generic build "
        "(the official PyTorch/TensorFlow wheels, or the Azure ML curated environment) instead of "
        "a CPU-specific one, rebuild without `-march=native`, or choose a VM size with that CPU; "
        "`grep -o 'avx512[a-z]*\\|amx[a-z_]*' /proc/cpuinfo | sort -u` on a node shows what "
        f"it has ({GUIDE})."
    ),
    "abort": (
        "A process aborted (SIGABRT): native code called `abort()` after a failed C++ assertion "
        "or an uncaught C++ exception (`terminate called after throwing…`); the line before it "
        "in the same log says which. Most often NCCL, CUDA and the framework were built for "
        "different versions (a pip-installed NCCL or CUDA library over the image's): use one "
        "consistent build (the framework's own wheel with its bundled NCCL, or a curated Azure ML "
        "environment), and rerun with `NCCL_DEBUG=INFO` and `PYTHONFAULTHANDLER=1` for the stack "
        "(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html; "
        f"{GUIDE})."
    ),
    "tf_cluster_error": (
        "A TensorFlow task could not reach the others (or TF_CONFIG is wrong): every task must "
        "see the same `cluster` and its own `task`; on Azure ML use the TensorFlow distribution "
        "(it writes TF_CONFIG) with `worker_count` = instances "
        f"(https://www.tensorflow.org/guide/distributed_training; {GUIDE})."
    ),
    "unknown_failure": (
        "A rank failed (a non-zero exit, a fatal signal or an uncaught exception) without a "
        "cause the doctor knows: the evidence lines are where it shows; read that rank's lines "
        "just before them and Azure ML's system_logs (user_logs only hold what the script "
        "printed); rerun with `PYTHONFAULTHANDLER=1` and `NCCL_DEBUG=INFO` for more."
    ),
    "script_arguments": (
        "The script rejected the arguments its command passed (argparse's `error:` line says "
        "which): check the job's command and inputs (a sweep's `${{search_space.x}}`, an input "
        "left empty). Most often the launcher adds one: `torch.distributed.launch` passes "
        "`--local_rank=N` (PyTorch 2 spells it `--local-rank`), which the script's argparse "
        "does not declare. Read the local rank from the `LOCAL_RANK` environment variable "
        "(torchrun and Azure ML's PyTorch distribution set it) and drop the argument, or "
        "declare both spellings "
        "(https://pytorch.org/docs/stable/elastic/run.html#transitioning-from-torch-distributed-launch-to-torchrun)."
    ),
    **AZUREML_FIXES,
    "none": "Nothing failed in these logs.",
    "hang": (
        "The other ranks wait in a collective for this one, whose stack shows where it stopped "
        "(the line above): a data loader or file read that blocks, a lock, an `if rank == 0:` "
        "branch that skips a collective the others run, or a collective with a different size "
        "or order on this rank. `dtrain-tui stacks NAME` shows every "
        "rank's stack again; fix that line, and give `init_process_group(timeout=...)` a limit "
        "that ends a hang before it bills for hours."
    ),
    "not_proven": (
        "Read the lines above in their logs; if the job is over, its exit status settles it "
        "(`dtrain-tui jobs`, or the job's page in Azure ML Studio), and Azure ML's "
        "system_logs/ hold what the platform saw. A log that was cut short proves nothing: "
        "download all of it."
    ),
}

SIGNAL_CAUSES = {
    9: "host_oom_killed",
    11: "segfault",
    7: "segfault",
    4: "illegal_instruction",
    6: "abort",
}
"""What a rank killed by a signal most likely died of (SIGKILL: the OOM killer)."""
WEAK_SIGNAL_CAUSES = {"abort"}
"""Signals that usually end a failure another line explains (NCCL's watchdog aborts the process
after a collective timeout): a launcher's word of them counts only when nothing else does."""


WORDS = {
    "nccl_timeout": "a collective timed out waiting for it",
    "cuda_oom": "the GPU ran out of memory",
    "host_oom_killed": "killed by SIGKILL (the host ran out of memory)",
    "rendezvous_timeout": "the ranks never all met at the rendezvous",
    "address_in_use": "the rendezvous port was already in use",
    "nccl_system_error": "NCCL failed",
    "world_size_mismatch": "the ranks disagree on the world size or their ranks",
    "import_error": "a module could not be imported",
    "user_code_error": "the training script raised an exception",
    "mpi_error": "the MPI launch failed",
    "segfault": "crashed in native code (segmentation fault or bus error)",
    "illegal_instruction": "killed by SIGILL (an instruction its CPU does not have)",
    "abort": "aborted in native code (SIGABRT)",
    "tf_cluster_error": "a task could not reach the cluster",
    "script_arguments": "the script rejected the launcher's arguments",
    "unknown_failure": "it failed without saying why",
    "hang": "it stopped moving while the other ranks wait for it",
    "disk_full": "the disk ran out of space",
    "job_rejected": "Azure ML refused the job as submitted (it never ran)",
    "image_pull_failed": "Azure ML could not pull the job's Docker image",
    "environment_build_failed": "its environment (conda, pip or Docker image) failed to build",
    "data_access_failed": "an input could not be mounted or downloaded",
    "capacity_or_quota": "no capacity or quota for the compute it asked for",
    "node_preempted": "its low-priority node was preempted",
    "node_failure": "a node or its GPU went bad (not the job's code)",
    "job_time_limit": "the job reached its time limit and was cancelled",
    "azureml_system_error": "Azure ML's own service failed",
}
"""Each cause in a few words, for the diagnosis' first line."""

TITLES = {
    "nccl_timeout": "Collective timed out",
    "cuda_oom": "GPU out of memory",
    "host_oom_killed": "Killed: host out of memory",
    "rendezvous_timeout": "Ranks never met (rendezvous)",
    "address_in_use": "Port already in use",
    "nccl_system_error": "NCCL / network error",
    "world_size_mismatch": "World size or ranks disagree",
    "import_error": "Module could not be imported",
    "user_code_error": "Exception in the training script",
    "mpi_error": "MPI launch failed",
    "segfault": "Crashed in native code",
    "illegal_instruction": "Illegal instruction (CPU)",
    "abort": "Aborted in native code",
    "tf_cluster_error": "Task could not reach the cluster",
    "script_arguments": "Script rejected the launcher's arguments",
    "unknown_failure": "Failed, cause unknown",
    "hang": "Hang: one rank stopped, the rest wait",
    "disk_full": "Disk full",
    "job_rejected": "Job refused at submission",
    "image_pull_failed": "Docker image could not be pulled",
    "environment_build_failed": "Environment build failed",
    "data_access_failed": "Data mount or download failed",
    "capacity_or_quota": "No capacity or quota",
    "node_preempted": "Node preempted (low priority)",
    "node_failure": "Node or GPU failure",
    "job_time_limit": "Job time limit reached",
    "azureml_system_error": "Azure ML system error",
    "none": "Healthy",
    "not_proven": "No failure found, not proven healthy",
}
"""Each cause as a heading a new engineer understands (never the bare id)."""

_REHEARSE = " and rehearse with `dtrain-tui submit --target local` before the cloud run"


def fix_for(cause: str, local: bool = False) -> str:
    """The fix for `cause`, in the job's own terms: a job that already runs on this machine is
    not told to rehearse on this machine."""
    text = FIXES[cause]
    return text.replace(_REHEARSE, "") if local else text
