"""The layers below the backends (the model, the script reader, the frameworks, the plan's
composition, the logs) stay free of UI and cloud code; starting the CLI does not pay for
azure.ai.ml."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted(
    f"tui.{p.parent.name}.{p.stem}"
    for sub in ("core", "scripts", "frameworks", "planning", "logs")
    for p in (ROOT / "tui" / sub).glob("*.py")
    if p.stem != "__init__"
)
FORBIDDEN = ("textual", "azure.ai.ml", "azure.identity", "screens", "widgets")


def run_probe(probe: str) -> subprocess.CompletedProcess[str]:
    """`probe` run by a fresh Python from the repository (no terminal on stdin)."""
    return subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        check=True,
    )


def loaded_after(statement: str) -> list[str]:
    probe = (
        f"import sys\n{statement}\n"
        f"print('\\n'.join(m for m in sys.modules if m.split('.')[0] in "
        f"{{'textual', 'screens', 'widgets'}} or m.startswith(('azure.ai.ml', 'azure.identity'))))"
    )
    out = run_probe(probe)
    return out.stdout.split()


def test_the_core_list_is_not_empty():
    assert {
        "tui.core.spec",
        "tui.planning.plan",
        "tui.planning.export",
        "tui.planning.job_import",
        "tui.logs.sources",
    } <= set(CORE)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_ui_and_no_azure(module):
    assert loaded_after(f"import {module}") == []


def test_cli_preview_path_does_not_import_azure_or_textual():
    statement = (
        "import contextlib, io; from tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['preview', '--show', 'all'])"
    )
    assert loaded_after(statement) == []


def test_starting_the_wizard_does_not_import_azure_ml():
    """azure.ai.ml costs over a second to import; the wizard must reach its first frame without."""
    statement = (
        "from tui.app import DtrainApp\n"
        "class Probe(DtrainApp):\n"
        "    def on_ready(self):\n"
        "        self.exit()\n"
        "Probe().run(headless=True)"  # its default backends, as `dtrain-tui` starts it
    )
    loaded = loaded_after(statement)
    assert not [m for m in loaded if m.startswith(("azure.ai.ml", "azure.identity"))]
    assert "textual" in loaded  # the probe really started the app


FIRST_FRAME_SKIPS = (
    "screens.launch",
    "screens.resources",
    "screens.code",
    "screens.review",
    "screens.job",
    "widgets.log_view",
    "widgets.metrics_chart",
    "plotext",
    "httpx",
    "tui.planning.plan",
    "tui.planning.export",
    "tui.planning.sdk",
    "tui.backends.base",
    "tui.backends.local",
    "tui.backends.azureml",
    "azure.ai.ml",
    "widgets.env_table",
    "yaml",
    "pydantic",
    "tui.core.spec",
    "tui.core.catalog",
    "tui.frameworks.registry",
    "tui.frameworks.base",
    "tui.core.plan_types",
)
"""What the wizard's first frame does not need: later steps, the job screen and its log view
and chart, the plan (built when a later step first asks), exports, backends and azure-ai-ml,
the review's env table; nor the model (pydantic, `JobSpec`, the SKU table) and the framework
modules: the first screen lists the frameworks from `tui.core.framework_list`, and the app makes
the spec, builds its validator and reads the SKU table just after the first frame."""


def test_the_first_frame_loads_only_what_it_draws():
    # The probe's on_ready runs before the app's own (which builds what the first frame put
    # off), so it sees what was there at the first frame.
    probe = (
        "import gc, sys\n"
        "from tui.app import DtrainApp\n"
        "class Probe(DtrainApp):\n"
        "    def on_ready(self):\n"
        f"        print(*(m for m in sys.modules if m.startswith({FIRST_FRAME_SKIPS!r})))\n"
        "        print(self.spec_built, gc.isenabled())\n"
        "        self.exit()\n"
        "Probe().run(headless=True)\n"  # its default backends, as `dtrain-tui` starts it
        "from tui.core.catalog import skus\n"
        "from tui.core.spec import JobSpec\n"
        "print(JobSpec.__pydantic_complete__, skus.cache_info().currsize > 0, gc.isenabled(), "
        "gc.get_freeze_count())"
    )
    out = run_probe(probe)
    modules, at_first_frame, after = out.stdout.splitlines()
    loaded = [m for m in modules.split() if m in FIRST_FRAME_SKIPS or m.startswith("azure.ai.ml.")]
    assert loaded == []
    # No spec made, no garbage collected before the first frame; then the validator is built,
    # the SKU table read, and the collector is back as it was (nothing left frozen).
    assert at_first_frame == "False False"
    assert after == "True True True 0"


def test_the_first_frame_shows_the_defaults_as_validated():
    """The app starts from `JobSpec.model_construct()` so that the first frame does not build
    the validator: it must be the very spec `JobSpec()` validates."""
    from tui.core.spec import JobSpec

    constructed, validated = JobSpec.model_construct(), JobSpec()
    assert constructed == validated
    assert constructed.model_fields_set == validated.model_fields_set == set()
    assert constructed.model_dump() == validated.model_dump()


def test_the_first_screen_lists_the_registry():
    """The first screen lists the frameworks from plain data (`tui.core.framework_list`), which
    must say what the framework modules say, in the registry's order; and start where the
    model starts."""
    from tui.core import framework_list as titles
    from tui.core.spec import JobSpec
    from tui.frameworks import registry

    assert tuple((f.name, f.title, f.tagline) for f in registry.frameworks()) == titles.LISTED
    assert JobSpec().framework == titles.DEFAULT


def test_the_first_screen_shows_the_spec_it_is_given():
    """Started on a spec (a preset, a test), the first screen shows it: framework, why."""
    probe = (
        "import asyncio\n"
        "from tui.app import DtrainApp\n"
        "from tui.core.spec import JobSpec\n"
        "from tui.frameworks import registry\n"  # gives the model its rules, as the CLI does
        "async def main():\n"
        "    app = DtrainApp(JobSpec(framework='horovod'), backends={})\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        print(app.screen.query_one('#fw-horovod').value, app.framework)\n"
        "asyncio.run(main())\n"
    )
    out = run_probe(probe)
    assert out.stdout.split() == ["True", "horovod"]


def _imports(path: Path, modules: set[str], *, lazy: bool) -> set[str]:
    """The project modules `path` imports: at import time, or (`lazy`) anywhere in it. Imports
    under `if TYPE_CHECKING:` are for type checkers only and never run."""
    tree = ast.parse(path.read_text())
    checking = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    nodes = ast.walk(tree) if lazy else iter(tree.body)
    found: set[str] = set()
    for node in nodes:
        if id(node) in checking:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found & modules


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or round a loop."""
    reach = {m: set() for m in graph}
    for start in graph:
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m not in reach[start]:
                reach[start].add(m)
                todo.extend(graph[m])
    groups = {frozenset({m} | {o for o in reach[m] if m in reach[o]}) for m in graph}
    return sorted(sorted(g) for g in groups if len(g) > 1)


def _graph(*, lazy: bool) -> dict[str, set[str]]:
    paths = {}
    for path in [*ROOT.glob("tui/**/*.py"), *ROOT.glob("screens/*.py"), *ROOT.glob("widgets/*.py")]:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        paths[name.removesuffix(".__init__")] = path
    return {m: _imports(p, set(paths), lazy=lazy) - {m} for m, p in paths.items()}


def test_no_module_imports_itself_round_a_loop():
    """Import time: no circle anywhere in the app. Even lazily (an import inside a function),
    the screens never import the app back, and the core's modules form no circle."""
    assert _circles(_graph(lazy=False)) == []
    lazy = _graph(lazy=True)
    assert "tui.core.spec" in lazy["tui.planning.plan"] and "tui.planning.plan" in lazy["tui.app"]
    loops = _circles(lazy)
    assert [g for g in loops if "tui.app" in g or any(m.startswith("tui.core") for m in g)] == []
    assert [
        m for m, deps in lazy.items() if m.startswith(("screens", "widgets")) and "tui.app" in deps
    ] == []


def test_dtrain_tui_with_no_arguments_starts_the_wizard_before_any_parsing():
    """`dtrain-tui` alone goes to the wizard without argparse or the commands' modules (30-40 ms
    of its 0.3 s to the first frame); here, without a terminal, it says so in one line."""
    probe = (
        "import sys\n"
        "sys.argv = ['dtrain-tui']\n"
        "from tui.cli import main\n"
        "code = main()\n"
        "print(code, *(m for m in ('argparse', 'tui.cli.commands', 'tui.cli.inputs') "
        "if m in sys.modules))\n"
    )
    out = run_probe(probe)
    assert out.stdout.split() == ["2"]
    assert out.stderr.startswith("dtrain-tui: error: no terminal")
