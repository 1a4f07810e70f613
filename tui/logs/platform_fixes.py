"""The fixes for what the platform under the job failed at, in Azure ML's terms: what to change
in the job, its environment or its compute (the causes are read by `platform_rules`)."""

from __future__ import annotations

TROUBLESHOOT = "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-environments"
COMPUTE = "https://learn.microsoft.com/azure/machine-learning/how-to-create-attach-compute-cluster"
QUOTA = "https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas"
DATA = "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2"

AZUREML_FIXES: dict[str, str] = {
    "disk_full": (
        "A disk filled up (`No space left on device`, or a checkpoint written short: PyTorch's "
        "`unexpected pos … vs …`, `file write failed`): write checkpoints and outputs to the job's "
        "output (an `outputs:` entry, mounted to blob storage) instead of the node's disk, keep "
        "fewer checkpoints, clear caches (pip, Hugging Face) the job fills, or pick a VM size "
        "with a larger local disk."
    ),
    "job_rejected": (
        "Azure ML refused the job before any node ran it. A code snapshot over its size limit "
        "(300 MB): move data and checkpoints out of the code folder into a datastore input, or "
        "list them in `.amlignore` (the `.gitignore` syntax) in the code folder; a job YAML that "
        "fails its schema (`az ml job create` names the field): fix that field against the "
        "job's YAML reference; then submit again "
        "(https://learn.microsoft.com/azure/machine-learning/how-to-save-write-experiment-files; "
        "https://learn.microsoft.com/azure/machine-learning/reference-yaml-job-command)."
    ),
    "image_pull_failed": (
        "The node could not pull the job's Docker image: check the image name and tag, and that "
        "the compute can reach the registry and is allowed to pull from it. For a private Azure "
        "Container Registry give the compute cluster a managed identity with the AcrPull role "
        "on it (or the workspace's own registry), or set the registry's credentials on the "
        "environment; on a private network allow the registry's endpoint "
        f"({TROUBLESHOOT})."
    ),
    "environment_build_failed": (
        "Azure ML could not build the job's environment (the image build log, "
        "`azureml-logs/20_image_build_log.txt`, shows the failing conda, pip or Dockerfile "
        "step): pin versions that exist for the image's Python, drop packages no index has, "
        "build the same conda file or Dockerfile locally first, or start from a curated "
        "environment and add only what is missing. A Docker build context must contain every "
        f"file the Dockerfile copies ({TROUBLESHOOT})."
    ),
    "data_access_failed": (
        "An input could not be mounted or downloaded before the script ran: check the path "
        "exists in the datastore, and that the identity the job uses (the compute's managed "
        "identity, or your own with `identity: user_identity`) has `Storage Blob Data Reader` on "
        "the storage account, or that the datastore's credentials are current; try "
        "`mode: download` instead of `ro_mount`, or another VM size if the mount itself "
        f"fails ({DATA})."
    ),
    "capacity_or_quota": (
        "The compute could not get the nodes it asked for: the subscription's vCPU quota for "
        "that VM family (or the region's capacity) is too small. Request more quota (Azure "
        "portal, Quotas, Machine Learning), choose a VM size of a family with quota, lower "
        "`instance_count` or the cluster's max nodes, or try another region "
        f"({QUOTA})."
    ),
    "node_preempted": (
        "The job ran on low-priority (spot) nodes and Azure took them back. Rerun it, save "
        "checkpoints often and resume from the last one, or use a dedicated-tier cluster "
        f"(`tier: dedicated`) for jobs that must not be interrupted ({COMPUTE})."
    ),
    "node_failure": (
        "A node (or a GPU on it: an Xid error, a GPU fallen off the bus, ECC errors) went bad; "
        "the job's code is not at fault. Rerun the job; if the same node fails again, scale the "
        "cluster to 0 nodes and back (or restart the compute instance) to get a fresh one, and "
        "run the `cluster-check` preset to test the nodes before a long run "
        f"({COMPUTE})."
    ),
    "job_time_limit": (
        "The job reached its time limit and was cancelled: raise `limits: timeout` on the "
        "command job (seconds), or make the run shorter (fewer steps, resume from a checkpoint "
        "in the next job); on a scheduler such as Slurm raise `--time` "
        "(https://learn.microsoft.com/azure/machine-learning/reference-yaml-job-command)."
    ),
    "azureml_system_error": (
        "Azure ML's own service failed (a `SystemError` or `ServiceError`, not your code): "
        "resubmit the job; if it fails the same way, check Azure status for the region and "
        "open a support request with the job's run ID and the error's correlation ID "
        "(https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-job)."
    ),
}
"""The platform's causes' fixes (joined into `causes.FIXES`)."""
