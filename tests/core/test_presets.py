"""Shipped presets load, teach something, and user presets round-trip through the config dir."""

from __future__ import annotations

import pytest

from tui.core.spec import JobSpec
from tui.planning.plan import plan
from tui.planning.presets import (
    PresetProblem,
    get_preset,
    load_presets,
    samples_dir,
    save_preset,
    user_presets_dir,
)

SHIPPED = (
    "pytorch-ddp",
    "pytorch-torchrun",
    "lightning",
    "huggingface",
    "deepspeed",
    "tensorflow-mwms",
    "tensorflow-ps",
    "horovod",
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DTRAIN_TUI_HOME", str(tmp_path))
    return tmp_path


def test_every_shipped_preset_loads_plans_and_explains_itself():
    presets, problems = load_presets()
    assert problems == []
    by_name = {p.name: p for p in presets}
    assert set(SHIPPED) <= set(by_name)
    for name in SHIPPED:
        preset = by_name[name]
        assert len(preset.note) > 200, name
        assert plan(preset.spec).world_size >= 2
    assert {by_name[n].spec.framework for n in SHIPPED} == {
        "pytorch",
        "lightning",
        "huggingface",
        "deepspeed",
        "tensorflow",
        "horovod",
    }


def test_ddp_presets_use_the_shipped_sample_script():
    for name in ("pytorch-ddp", "pytorch-torchrun"):
        spec = get_preset(name).spec
        assert (samples_dir() / spec.script).is_file()
        assert spec.code == str(samples_dir())


def test_saved_preset_loads_back_equal_and_keeps_the_samples_placeholder():
    spec = get_preset("pytorch-ddp").spec.with_changes(
        nodes=3, env={"NCCL_DEBUG": "INFO"}, args=("--name", "my run")
    )
    path = save_preset("my-ddp", spec, note="three nodes")
    assert path.parent == user_presets_dir()
    assert "{samples}" in path.read_text()
    loaded = get_preset("my-ddp")
    assert (loaded.spec, loaded.note, loaded.source) == (spec, "three nodes", "user")


def test_a_user_preset_replaces_a_shipped_one_of_the_same_name():
    save_preset("horovod", JobSpec(framework="horovod", nodes=5, gpus_per_node=2))
    assert get_preset("horovod").spec.nodes == 5


def test_bad_names_and_broken_files_are_reported():
    with pytest.raises(PresetProblem, match="use lower-case letters"):
        save_preset("My Job!", JobSpec())
    user_presets_dir().mkdir(parents=True)
    (user_presets_dir() / "oops.yaml").write_text("title: no spec here\n")
    presets, problems = load_presets()
    assert len(presets) >= len(SHIPPED)
    assert problems == [
        f"preset oops ({user_presets_dir() / 'oops.yaml'}): expected `title`, `note` and `spec`"
    ]
