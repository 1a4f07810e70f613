"""The script's own modules on the import path (`import_path_not_set`): a script run as a file
from a folder of the code folder finds only that folder's modules, not the root's, unless the
plan sets PYTHONPATH, the script extends `sys.path`, or the project is installable (its packages
may be in the environment). Run on the corpus scripts whose labels name it, as they are and
changed as a reader would change them."""

from __future__ import annotations

import shutil

from tests.core.script_corpus import cases
from tests.core.test_script_check_fourth_fold import check, lines
from tui.core.spec import JobSpec
from tui.planning.script_check import check_file

LLAMAGEN = "pytorch_llamagen_c2i/autoregressive/train/train_c2i.py"


def test_a_root_module_imported_from_a_script_in_a_subfolder_is_named_at_its_import():
    # FoundationVision/LlamaGen: `from utils.logger import create_logger` in
    # autoregressive/train/train_c2i.py, utils/ at the repository's root, no setup.py
    found = check(LLAMAGEN)
    assert lines(found, "import_path_not_set") == [19]
    what = next(w for r, _, _, w in found if r == "import_path_not_set")
    assert "`utils`" in what and "autoregressive/train/" in what


def test_pythonpath_or_a_script_that_extends_sys_path_says_nothing():
    assert lines(check(LLAMAGEN, env={"PYTHONPATH": "."}), "import_path_not_set") == []
    extends = ("import torch\n", "import sys; sys.path.insert(0, '.')\nimport torch\n")
    assert lines(check(LLAMAGEN, extends), "import_path_not_set") == []
    tried = ("from utils.logger import create_logger\n", "try:\n    from utils.logger import "
             "create_logger\nexcept ImportError:\n    create_logger = None\n")  # fmt: skip
    # the import tried with a fallback is not the failure; the next one of the root is (line 23:
    # the fallback takes four lines)
    assert lines(check(LLAMAGEN, tried), "import_path_not_set") == [23]


def test_an_installable_project_may_have_its_packages_installed(tmp_path):
    # openai/guided-diffusion: scripts/image_train.py imports guided_diffusion; setup.py at root
    script = "pytorch_guided_diffusion/scripts/image_train.py"
    assert lines(check(script), "import_path_not_set") == []
    # the same folder without its setup.py: nothing can have installed guided_diffusion
    case = next(c for c in cases() if c.file == script)
    shutil.copytree(case.folder, tmp_path / "code", ignore=shutil.ignore_patterns("setup.py"))
    spec = JobSpec(**{**case.plan, "script": case.script})
    report = check_file(tmp_path / "code" / case.script, spec, True, tmp_path / "code")
    assert [f.line for f in report.findings if f.rule == "import_path_not_set"] == [8]
