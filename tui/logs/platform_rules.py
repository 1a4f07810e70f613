"""What the platform under the job says went wrong: Azure ML's own failures (a job it refused at
submission, its image pull and environment build, data mounts, capacity and quota, preempted or
broken nodes, the job's time limit, its own service errors), the disk, and a GPU gone bad on the
host.

These come from the platform's logs beside the user's (`azureml-logs/20_image_build_log`,
`55_azureml-execution`, `70_driver_log`, `system_logs/` and the lifecycler's) and from the
job's own error (the `UserError` / `SystemError` / `ServiceError` JSON, its `code` and
`message`). Message texts as Azure ML prints them (its troubleshooting guide, and real reports).

A platform cause outranks what the job's processes printed (`PLATFORM`): when the image never
built or the node was preempted, the user's code either never ran or was stopped from outside,
and what it printed is a consequence. Among them the service's generic `SystemError` comes last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui.logs.causes import FAILURE, ROOT


@dataclass(frozen=True)
class PlatformRule:
    cause: str
    tier: int
    pattern: re.Pattern[str]


def _rule(cause: str, *patterns: str, tier: int = ROOT) -> PlatformRule:
    return PlatformRule(cause, tier, re.compile("|".join(f"(?:{p})" for p in patterns)))


PLATFORM_RULES: tuple[PlatformRule, ...] = (
    _rule(
        "job_rejected",  # refused at submission: nothing ran
        r"(?i:snapshot size exceeds the limit)|SnapshotException",
        r"Validation for \w*Schema failed",  # azure-ai-ml's check of the job's YAML
    ),
    _rule(
        "image_pull_failed",
        r"FailedPullingImage|Unable to pull docker image|ImagePullBackOff|ErrImagePull",
        r"pull access denied for",
        r"(?i:pull (?:public |private )?image failed)",
        r"AcrRefreshTokenRetrievalError|(?i:unable to retrieve ACR (?:refresh )?token)",
        r"(?i:failed to pull (?:the )?(?:docker )?image)",
        r"Error response from daemon: (?:Get|Head) \"?https?://\S+/v2/",  # the registry's API
        r"(?i:error response from daemon:.*(?:manifest unknown|not found: manifest|unauthorized))",
        # the job's image or the registry behind it cannot be looked up
        r"Unable to get image details|Unable to fetch workspace resources: .*ContainerRegistry",
    ),
    _rule(
        "environment_build_failed",
        r"(?i:image build failed)|ImageBuildFailure|Docker image build failed",
        r"Image creation failed|(?i:environment (?:image )?build failed)",
        r"CondaValueError|ResolvePackageNotFound|UnsatisfiableError|CondaEnvException",
        r"PackagesNotFoundError|CondaHTTPError",
        r"pip returned an error|No matching distribution found for",
        r"Could not find a version that satisfies the requirement",
        r"ERROR conda\.core\.link|Executing transaction: .*failed",
        r"^error from sender: |failed to solve(?: with frontend)?: ",
        r"returned a non-zero code: \d+",  # docker build's RUN step
        r"conda_env_builder.*(?:fail|error)|(?i:conda env (?:create|update) .*fail)",
    ),
    _rule(
        "data_access_failed",
        r"\b(?:AZF|BFS|Blobfuse|Dataset)?MountError\b|(?i:unable to mount|could not mount|"
        r"failed to mount)",
        r"DataAccessError|DatastoreAccessError|ScriptExecution\.StreamAccess\.\w+",
        r"StreamAccess\.(?:Authentication|NotFound|Validation)|StreamError\(\w+\)",
        r"(?i:dataset initialization failed)|(?i:cannot mount dataset)",
        r"(?i:blobfuse2?\b.*(?:fail|error))",
        r"(?i:failed to (?:download|read) (?:the )?(?:input|dataset))",
        r"AuthorizationPermissionMismatch|This request is not authorized to perform this operation",
    ),
    _rule(
        "capacity_or_quota",
        r"QuotaExceeded|ClusterQuotaReached|ClusterCoreQuotaReached|\w*ExceedCoreQuota|"
        r"\w*ExceedsCoreQuota",
        r"(?i:v?CPU quota of \d+)|(?i:exceeding quota limits)|(?i:quota (?:exceeded|reached))",
        r"\b(?:Zonal)?AllocationFailed\b|SkuNotAvailable|OverconstrainedAllocationRequest",
        r"(?i:insufficient (?:capacity|quota))|(?i:not enough (?:quota|capacity))",
        r"(?i:cluster (?:could not|failed to|cannot) (?:scale|resize))",
        # another cloud's word for the same refusal (`ResourceLimitExceeded … The account-level
        # service limit 'ml.p2.xlarge for training job usage' is 0 Instances`)
        r"\bResourceLimitExceeded\b|(?i:account-level service limit)",
    ),
    _rule(
        "node_preempted",
        r"PreemptionError|(?i:got pre-?empted|pre-?emption warning signal)",
        r"(?i:node (?:was )?pre-?empted)",
        r"(?i:low[- ]priority node .*(?:pre-?empted|evicted))|(?i:spot (?:vm|instance) .*evicted)",
        # a cloud's notice that it is taking a spot VM back
        r"(?i:termination is imminent|spot instance interruption)",
    ),
    _rule(
        "node_failure",
        r"(?i:unusable node|node (?:is |became |went )?(?:unhealthy|unusable))|NodeUnusable",
        r"(?i:node health ?check failed)|(?i:node (?:was )?lost)|\bUnhealthyNode\b",
        r"\bXid\b.*?\b(?:48|63|64|74|79|92|94|95|119|120)\b|fallen off the bus",
        r"(?i:uncorrectable ECC error)",
        r"\bCluster error: \w+|nvidiaConfigFail|(?i:GPU configuration failed)",
        # a scheduler's node daemon that cannot start the job there, or lost the node under it
        r"slurmstepd: error: (?:execve\(\)|couldn't chdir|[Pp]rolog failed)|DUE TO NODE FAIL",
        r"\bNODE_FAIL\b|(?i:\bnode\b.{0,40}\b(?:is|went) down\b|\bnode\b.{0,40}not responding)",
    ),
    _rule(
        "job_time_limit",
        r"DUE TO TIME LIMIT",
        r"(?i:exceeded (?:the |its )?(?:maximum )?(?:run )?(?:duration|time ?limit))",
        r"max_run_duration_seconds|(?i:job (?:was )?cancel+ed .*(?:time ?limit|timeout))",
        r"\bRUN_TIMEOUT\b|JobTimeout|(?i:run (?:timed out|exceeded the timeout))",
        r"ran longer than the maximum time of \d+ minutes",  # an Azure Pipelines agent's job
    ),
    _rule(
        "disk_full",
        r"^(?!.*(?:/dev/shm|NCCL|\bshm\b)).*(?:No space left on device|\[Errno 28\]|ENOSPC)",
        r"Disk quota exceeded|(?i:not enough (?:free )?disk space)|(?i:disk (?:is )?full)",
        r"(?i:not enough space on the disk)|\bNodeDiskFull\b|\bDiskFullError\b",  # Windows, Batch
        # a file written short (PyTorch's checkpoint writer): the disk or its quota filled up
        r"\bunexpected pos \d+ vs \d+|PytorchStreamWriter failed writing file|file write failed",
    ),
    _rule(
        "azureml_system_error",
        r"\"(?i:code)\":\s*\"(?:ServiceError|SystemError)\"|\bcode=\"?(?:ServiceError|SystemError)",
        # its own containers around the user's (`…-execution-wrapper-init` failed, the OCI
        # runtime could not create one): the user's command never ran
        r"(?i:execution-wrapper(?:-init)?\W{0,3} failed)|OCI runtime create failed",
        r"System errors were found|(?i:internal server error)|InternalServerError",
        r"ServiceInvocationException|(?i:AzureML(?:Compute)? .*system error)",
        r"Failure in \w+ while calling service \w+|invalid volume specification",
        r"Docker Command attempt \d+ failed with err: exit status 125",  # its own docker run
        # the service gave up retrying its own steps (not the user's program)
        r"Non terminal exception retries exhausted|TotalRetriesAttempted",
    ),
    _rule(
        "unknown_failure",
        # The job's own error says the user's program failed, without saying how.
        r"\"code\":\s*\"UserError\"|User program failed|JobFailed|AzureMLCompute job failed",
        r"returned non-zero exit status [1-9]|exited with (?:non-zero )?(?:status|code) [1-9]",
        r"\b[Ss]tatus from \w+ to Failed\b",  # the controller's status change, logged at INFO
        tier=FAILURE,
    ),
)

WORDS = (
    "pull", "acr", "daemon", "build", "image creation", "conda", "package", "unsatisfiable",
    "pip", "distribution", "satisfies", "transaction", "sender", "solve", "non-zero", "mount",
    "dataaccess", "datastore", "stream", "dataset", "blobfuse", "download", "failed to",
    "authoriz", "quota", "allocation", "sku", "insufficient", "not enough", "cluster", "preempt",
    "pre-empt", "evicted", "unusable", "unhealthy", "health", "node", "xid", "fallen", "ecc",
    "nvidiaconfig", "gpu configuration", "time limit", "exceeded", "max_run", "cancel",
    "run_timeout", "jobtimeout", "timed out", "no space", "errno 28", "enospc", "disk", '"code"',
    "code=", "system error", "internal server", "internalserver", "serviceinvocation",
    "while calling service", "volume", "docker command", "user program", "jobfailed",
    "azuremlcompute", "exited with", "slurmstepd", "node_fail", "retries exhausted",
    "totalretriesattempted", "status from", "space on the disk", "diskfull",
    "maximum time", "snapshot", "schema failed", "image details", "containerregistry",
    "unexpected pos", "write failed", "pytorchstreamwriter", "resourcelimit", "service limit",
    "termination is imminent", "interruption", "execution-wrapper", "oci runtime",
)  # fmt: skip
"""Lower-cased, a word every line a platform rule matches holds: a line with none (most error
lines: a process's own) is not run through the rules' case-insensitive patterns, which cost
about a millisecond a line together."""

HINTS = (
    "Pull", "pull", "nable", "NotFound", "istribution", "ould not", "tream", "uthoriz", "uota",
    "SkuNot", "llocation", "nsufficient", "not enough", "mpted", "mption", "victed", "usable",
    "nhealthy", "lost", "Xid", "fallen", "xceed", "duration", "TIME LIMIT", "TIMEOUT", "space",
    "ENOSPC", "isk", "non-zero", "slurmstepd", "NODE_FAIL", "is down", "went down",
    "ot responding", "xhausted", "TotalRetries", "tatus from", "DiskFull", "maximum time",
    "napshot", "Schema failed", "mage details", "ContainerRegistry", "nexpected pos",
    "rite failed", "StreamWriter", "ResourceLimit", "ervice limit", "imminent", "nterruption",
    "execution-wrapper", "OCI runtime",
)  # fmt: skip
"""Words a platform rule's line holds that the doctor's own hints lack (`rror`, `ailed`,
`xception`, `imeout` … are there already: `doctor_rules.maybe_error`)."""
