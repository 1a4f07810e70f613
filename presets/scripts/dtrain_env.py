"""The line every example prints first: `DTRAIN_ENV NAME=value ...`, the distributed-training
variables this process received (what Azure ML and the launcher set, not the host's environment),
so a rehearsal can be checked against the plan dtrain-tui showed. Shared by the examples in this
folder, which is the job's code folder: it travels with them to every node."""

import os
import re
import shlex

_SECRET = re.compile(
    r"SECRET|TOKEN|PASSW(OR)?D|(^|_)PASS($|_)|KEY|CREDENTIAL|(^|_)SAS|CONN(ECTION)?_?STR|(^|_)AUTH($|_)|PRIVATE",
    re.IGNORECASE,
)  # names that look like secrets are not printed

_DISTRIBUTED = re.compile(
    r"(RANK|LOCAL_RANK|WORLD_SIZE|LOCAL_WORLD_SIZE|NODE_RANK|GROUP_RANK|GROUP_WORLD_SIZE"
    r"|ROLE_NAME|ROLE_RANK|ROLE_WORLD_SIZE|MASTER_ADDR|MASTER_PORT|TF_CONFIG|OMP_NUM_THREADS"
    r"|CUDA_VISIBLE_DEVICES|(AZ_BATCH|OMPI_COMM_WORLD|TORCHELASTIC|NCCL|ACCELERATE)_\w+)\Z"
)  # where this process sits in the job: what Azure ML and the launcher set, not the host's


def env_line() -> str:
    """`DTRAIN_ENV NAME=value ...`: the distributed-training variables this process has, or
    every variable with DTRAIN_ENV_DUMP=all (dtrain-tui's tests), never a name that looks
    secret. Names and quoted text, not numbers: a log reader takes no metric from it."""
    every = os.environ.get("DTRAIN_ENV_DUMP") == "all"
    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if (every or _DISTRIBUTED.match(k)) and not _SECRET.search(k)
    )
    pairs = (f"{k}={shlex.quote(' '.join(v.splitlines()))}" for k, v in env)  # one line
    return " ".join(["DTRAIN_ENV", *pairs])
