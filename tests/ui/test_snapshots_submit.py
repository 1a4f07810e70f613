"""The Submit dialog at 80×24 and 120×36 (issue 26, items 6 and 14): Azure ML's workspace form
with every wrong field said at once, and this machine's offer to install a missing framework;
Submit and Cancel stay on screen (SVG baselines in __snapshots__)."""

from __future__ import annotations

import pytest

from screens.submit import SubmitScreen
from tui.backends.azureml.arm import Choices, Listed
from tui.backends.azureml.workspace import Workspace
from tui.planning.preflight import CPU_TORCH, Finding

from .conftest import make_app

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
LOCAL = "Starts 4 processes on this machine: 2 simulated nodes × 2, with the real launchers."


class Seen:
    """Stands in for the Azure ML backend's lists: two subscriptions, two workspaces."""

    def workspace_choices(self) -> tuple[Workspace, Choices]:
        found = Workspace("sub-1", "rg-tset", "ws-tset", {"resource group": "env"})
        listed = [Listed("sub-1", "rg-test", "ws-test"), Listed("sub-1", "rg-other", "ws-other")]
        return found, Choices({"sub-1": "Research", "sub-2": "Production"}, listed)

    def use_workspace(self, ws: Workspace) -> None:
        raise AssertionError("a wrong choice is never used")


def dialog(**kwargs):
    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(SubmitScreen(LOCAL, "Submits the plan the review shows.", **kwargs))
        for _ in range(10):
            await pilot.pause()

    return run_before


@SIZES
def test_the_workspace_form_says_every_wrong_field(snap_compare, size):
    run = dialog(azure_ready=True, default="azureml", azure=Seen, azure_check=lambda: iter(()))
    assert snap_compare(make_app(), run_before=run, terminal_size=size)


@SIZES
def test_the_offer_to_install_a_missing_framework(snap_compare, size):
    fix = f".venv/bin/python -m pip install -e '.[torch]' --extra-index-url {CPU_TORCH}"
    torch = Finding("torch is not installed in .venv/bin/python", fix, install=("python",))
    run = dialog(azure_ready=False, local_findings=[torch])
    assert snap_compare(make_app(), run_before=run, terminal_size=size)
