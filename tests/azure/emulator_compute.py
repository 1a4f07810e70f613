"""The emulator's compute-cluster creation: a PUT and its long-running operation.

Shaped from the REST examples (Azure/azure-rest-api-specs, specification/machinelearningservices/
resource-manager/Microsoft.MachineLearningServices/stable/2024-04-01/examples/Compute/
createOrUpdate/AmlCompute.json at cbc5dc79): the PUT answers 201 with `provisioningState`
"Creating"-like and an `Azure-AsyncOperation` header; the operation reports InProgress until it
ends Succeeded (the cluster then reads Succeeded) or Failed with an `error` body. The quota
failure's words are the service's, as users pasted them (Azure/mlops-v2#81, microsoft/
InnerEye-DeepLearning#253): the creation fails in the operation and the cluster stays, Failed.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.azure.emulator import WorkspaceEmulator

PROVIDER = "Microsoft.MachineLearningServices"
QUOTA_MESSAGE = (
    "The specified subscription has a total vCPU quota of {limit} and cannot accomodate for at "
    "least 1 requested managed compute node which maps to {vcpus} vCPUs. Talk to your "
    "Subscription Admin or refer to https://docs.microsoft.com/azure/machine-learning/"
    "how-to-manage-quotas#request-quota-increases to increase the total vCPU quota"
)


@dataclass
class Creation:
    name: str
    polls_left: int
    error: dict[str, Any] | None


class ComputeCreations:
    """PUT computes/{name} and GET computeOperationsStatus/{op}, with a settable outcome.

    `quota_limit`: when set, a creation whose one node needs more vCPUs than this fails the way
    the service fails it. `polls` is how many status polls answer InProgress first.
    """

    def __init__(self, emulator: WorkspaceEmulator) -> None:
        self.em = emulator
        self.quota_limit: int | None = None
        self.polls = 1
        self.ops: dict[str, Creation] = {}
        self.bodies: list[dict[str, Any]] = []
        """What each PUT asked for (the SDK's REST body)."""

    def put(self, name: str, body: Any) -> tuple[int, Any, dict[str, str] | None]:
        em = self.em
        body = body if isinstance(body, dict) else {}
        self.bodies.append(body)
        props = (body.get("properties") or {}).get("properties") or {}
        size = str(props.get("vmSize") or "")
        scale = props.get("scaleSettings") or {}
        vm = next((s for s in em.vm_sizes if s["name"].lower() == size.lower()), None)
        if vm is None:
            return (
                400,
                {
                    "error": {
                        "code": "BadRequest",
                        "message": f"The specified vmSize {size} is not supported in region "
                        f"{em.location}.",
                    }
                },
                None,
            )
        em.add_compute(
            name,
            size,
            max_nodes=int(scale.get("maxNodeCount") or 1),
            min_nodes=int(scale.get("minNodeCount") or 0),
        )
        compute = em.computes[name]
        compute["properties"]["provisioningState"] = "Creating"
        compute["properties"]["properties"]["vmPriority"] = props.get("vmPriority", "Dedicated")
        idle = scale.get("nodeIdleTimeBeforeScaleDown")
        if idle:
            compute["properties"]["properties"]["scaleSettings"]["nodeIdleTimeBeforeScaleDown"] = (
                idle
            )
        error = None
        if self.quota_limit is not None and vm["vCPUs"] > self.quota_limit:
            message = QUOTA_MESSAGE.format(limit=self.quota_limit, vcpus=vm["vCPUs"])
            error = {"code": "BadRequest", "message": message}
        op = str(uuid.uuid4())
        self.ops[op] = Creation(name, self.polls, error)
        url = (
            f"{em.base_url}/subscriptions/{em.subscription}/providers/{PROVIDER}/locations/"
            f"{em.location}/computeOperationsStatus/{op}?api-version=2024-04-01"
        )
        # azure-core reads Retry-After 0 as "use the default" (30 s): 1 keeps tests quick.
        return 201, compute, {"Azure-AsyncOperation": url, "Retry-After": "1"}

    def status(self, op: str) -> tuple[int, Any, dict[str, str] | None]:
        creation = self.ops.get(op)
        if creation is None:
            return 404, {"error": {"code": "NotFound", "message": "no such operation"}}, None
        if creation.polls_left > 0:
            creation.polls_left -= 1
            return 200, {"id": op, "name": op, "status": "InProgress"}, {"Retry-After": "1"}
        compute = self.em.computes[creation.name]["properties"]
        if creation.error is not None:
            compute["provisioningState"] = "Failed"
            return 200, {"id": op, "name": op, "status": "Failed", "error": creation.error}, None
        compute["provisioningState"] = "Succeeded"
        return 200, {"id": op, "name": op, "status": "Succeeded"}, None
