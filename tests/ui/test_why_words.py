"""Every step's Why text speaks the chosen framework's language: it never names another
framework's mechanism (TF_CONFIG on a PyTorch job, a DataLoader or all-reduce on a TensorFlow
parameter-server job), except that of a framework it builds on (Lightning on PyTorch)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from screens.code import CodeStep
from screens.framework import FrameworkStep
from screens.launch import LaunchStep
from screens.resources import ResourcesStep
from tui.core.spec import JobSpec, launch_mode_problem
from tui.frameworks import registry

STEPS = (FrameworkStep, LaunchStep, ResourcesStep, CodeStep)


def specs() -> list[tuple[str, JobSpec]]:
    out = []
    for framework in registry.frameworks():
        for launch in ("per_process", "per_node", "single"):
            if launch_mode_problem(framework.name, launch) is None:
                spec = JobSpec(framework=framework.name, launch=launch, nodes=2, gpus_per_node=4)
                out.append((f"{framework.name}-{launch}", spec))
    ps = JobSpec(framework="tensorflow", launch="per_node", nodes=2, parameter_servers=1)
    return [*out, ("tensorflow-ps", ps)]


def foreign_words(name: str) -> dict[str, str]:
    """Mechanism words of every framework `name` does not build on → that framework."""
    mine = registry.get(name)
    return {
        word: other.name
        for other in registry.frameworks()
        if not isinstance(mine, type(other))
        for word in other.mechanisms
    }


@pytest.mark.parametrize(("case", "spec"), specs(), ids=[c for c, _ in specs()])
def test_no_step_explains_another_frameworks_mechanism(case: str, spec: JobSpec) -> None:
    foreign = foreign_words(spec.framework)
    for step, target in ((s, t) for s in STEPS for t in ("azureml", "local")):
        text = step.why(_on(step, target, spec), spec)
        found = {word: owner for word, owner in foreign.items() if word in text}
        assert not found, f"{step.__name__} for {case} names {found}:\n{text}"
        if case == "tensorflow-ps":  # parameter servers hold variables: nobody all-reduces
            assert "all-reduce" not in text, f"{step.__name__} for {case}:\n{text}"


def _on(step: type, target: str, spec: JobSpec):
    """The step as the wizard holds it, reviewing for `target` (its Why says what runs there)."""
    host = SimpleNamespace(review_target=target, spec=spec)
    return type(step.__name__, (step,), {"app": host})()


def test_each_framework_has_words_of_its_own_and_its_why():
    for framework in registry.frameworks():
        assert framework.mechanisms, framework.name
        spec = JobSpec(framework=framework.name, launch=framework.default_launch)
        assert framework.why("framework", spec), framework.name
