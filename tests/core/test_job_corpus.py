"""Real job files in, the same job out: every public command job in tests/core/data/jobs.

Each file is imported, exported into another folder and both are loaded by azure-ai-ml: the
REST bodies it would send must be equal (local paths compared after resolving). Files that
azure-ai-ml itself refuses must still open here, or be refused in one line that says why.
"""

from __future__ import annotations

import shutil
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.job_corpus import corpus_jobs, relative_name, rest_form
from tui.planning.export import job_dict, to_yaml
from tui.planning.job_import import ImportProblem, load_job_file
from tui.planning.plan import describe, plan

JOBS = sorted(corpus_jobs())

# azure-ai-ml 1.35 refuses these as written (checked below, so a broken stand-in cannot hide).
AZURE_ML_REFUSES = {
    "azureml-examples/cli/jobs/nebulaml/cifar10_deepspeed/job.yml": "environment placeholder",
    "azureml-examples/cli/jobs/nebulaml/bert-pretrain-deepspeed/job.yml": "environment placeholder",
    "azureml-examples/cli/jobs/train/fastai/mnist/job.yml": "preview schema",
    "azureml-examples/cli/jobs/train/lightgbm/iris/job.yml": "preview schema",
    "azure-sdk-for-python/test_configs/command_job/dist_job_pytorch_torch_distributed.yml": (
        "distribution type torch.distributed"
    ),
}


def _data(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def shape(data: dict) -> set[str]:
    """The shapes the issue names, as a job file shows them."""
    dist = data.get("distribution")
    env = data.get("environment")
    out = {f"distribution: {str(dist.get('type')).lower()}" if dist else "no distribution"}
    if "deepspeed" in data["command"]:
        out.add("deepspeed")
    if isinstance(env, dict):
        out.add("inline environment" + (" (docker build)" if "build" in env else ""))
    for key in ("inputs", "outputs", "services", "identity", "limits", "queue_settings"):
        if data.get(key):
            out.add(key)
    if isinstance(data.get("compute"), dict) or isinstance(data.get("code"), dict):
        out.add("preview schema")
    elif "<" in str(data.get("compute", "")) or "<" in str(env):
        out.add("placeholder")
    return out


def test_the_corpus_holds_every_shape_of_the_issue():
    counts = Counter(s for path in JOBS for s in shape(_data(path)))
    print(f"\n{len(JOBS)} job files:", dict(sorted(counts.items())))
    assert len(JOBS) >= 60
    assert counts["no distribution"] >= 30
    for kind in ("pytorch", "mpi", "tensorflow", "ray"):
        assert counts[f"distribution: {kind}"] >= 2, kind
    for s in ("deepspeed", "inline environment", "inline environment (docker build)", "inputs"):
        assert counts[s] >= 3, s
    for s in ("outputs", "services", "identity", "placeholder", "preview schema"):
        assert counts[s] >= 2, s


@pytest.mark.parametrize("path", JOBS, ids=relative_name)
def test_import_then_export_elsewhere_is_the_same_job(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a third folder: paths must not depend on where we run
    if relative_name(path) in AZURE_ML_REFUSES:
        with pytest.raises(Exception):  # noqa: B017 - whatever azure-ai-ml raises
            rest_form(path)
        try:
            spec = load_job_file(path)
        except ImportProblem as err:
            assert "\n" not in str(err) and "convert it" in str(err)
            return
        assert describe(plan(spec))  # opens, with the problem among the warnings
        return
    spec = load_job_file(path)
    out = tmp_path / "elsewhere" / "deeper"
    out.mkdir(parents=True)
    again = out / "job.yml"
    again.write_text(to_yaml(plan(spec), out))
    assert rest_form(again) == rest_form(path)
    assert _data(again)["command"] == _data(path)["command"]  # byte for byte


@cache
def _spec(path: Path):
    return load_job_file(path)


def _flat(value, prefix=""):
    if isinstance(value, dict) and value:
        out = {}
        for k, v in value.items():
            out |= _flat(v, f"{prefix}{k}.")
        return out
    return {prefix.rstrip("."): value}


LOADABLE = [p for p in JOBS if relative_name(p) not in AZURE_ML_REFUSES]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(LOADABLE), st.integers(1, 64))
def test_changing_nodes_changes_only_the_node_count_and_what_follows_from_it(path, nodes):
    spec = _spec(path)
    before = _flat(job_dict(plan(spec), path.parent))
    changed = spec.with_changes(nodes=nodes)
    after = _flat(job_dict(plan(changed), path.parent))
    diff = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    follows = {"resources.instance_count", "distribution.worker_count"}
    if spec.command is None:  # dtrain-tui builds it: torchrun --nnodes, Lightning's num_nodes
        follows.add("command")
    assert diff <= follows, (relative_name(path), diff)
    if nodes != spec.nodes:
        assert after["resources.instance_count"] == nodes + changed.parameter_servers


def _job(name: str) -> Path:
    return next(p for p in JOBS if relative_name(p).endswith(name))


def test_a_job_without_distribution_is_shown_as_not_distributed():
    p = plan(_spec(_job("single-step/r/iris/job.yml")))
    assert p.distribution.type == "none"
    assert describe(p).startswith("not distributed · 1 node × 1 process")
    assert "sets no rank variables" in " ".join(p.explanations)
    assert not {"RANK", "MASTER_ADDR", "WORLD_SIZE"} & set(p.ranks[0].env_dict())


def test_a_distribution_the_wizard_does_not_model_is_kept_and_named():
    spec = _spec(_job("dist_job_ray_1.yml"))
    p = plan(spec)
    assert p.distribution.type == "ray"
    assert "'ray' is kept exactly as your file wrote it" in p.explanations[0]
    assert (
        job_dict(plan(spec.with_changes(nodes=5)))["distribution"]
        == _data(_job("dist_job_ray_1.yml"))["distribution"]
    )


def test_warnings_read_the_command_the_job_really_runs():
    tf = plan(_spec(_job("tensorflow/mnist-distributed/job.yml")))
    assert not [w for w in tf.warnings if "no launcher" in w]
    ds = plan(_spec(_job("deepspeed/deepspeed-training/job.yml")))
    assert ds.spec.deepspeed_config == "ds_config.json"  # the command's own config
    assert ds.config_file is None  # so none is generated in its place
    cpu = plan(_spec(_job("dist_job_2.yml")))  # mpi on a compute dtrain-tui does not know
    assert "2 nodes × 4 processes" in describe(cpu) and "GPU" not in describe(cpu)


def test_what_azure_ml_would_refuse_is_a_warning_until_submit():
    tf = plan(_spec(_job("dist_job_3.yml")))  # instance_count 2, 3 workers + 3 ps
    assert any("instance_count: is 2" in w and "write instance_count: 6" in w for w in tf.warnings)
    assert job_dict(tf)["resources"]["instance_count"] == 2  # exported as written
    placeholder = plan(_spec(_job("Bert-Pretrain/AML-DeepSpeed-submit.yml")))
    assert any("is a placeholder" in w for w in placeholder.warnings)


def test_a_distribution_type_azure_ml_refuses_is_kept_and_warned_about():
    path = _job("dist_job_pytorch_torch_distributed.yml")
    p = plan(_spec(path))
    assert job_dict(p)["distribution"] == _data(path)["distribution"]  # still as written
    [warning] = [w for w in p.warnings if w.startswith("distribution.type:")]
    assert "'torch.distributed'" in warning and "refuse" in warning
    assert "fix: write `type: pytorch`" in warning
    ray = plan(_spec(_job("dist_job_ray_1.yml")))  # a type azure-ai-ml accepts: no warning
    assert not [w for w in ray.warnings if w.startswith("distribution.type:")]


def _build_context(rest: dict) -> Path:
    """The folder azure-ai-ml would send as the job's docker build context."""
    return Path(rest["properties"]["environmentId"]["build"]["path"])


def _export_elsewhere(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / "elsewhere" / "deeper"
    out.mkdir(parents=True)
    again = out / path.name
    again.write_text(to_yaml(plan(load_job_file(path)), out))
    return again


def test_an_environment_file_s_build_context_stays_its_own_folder(tmp_path, monkeypatch):
    # gpu_perf's job names `file:./environments/azureml/env.yml`, whose `build: path: .` is
    # resolved by azure-ai-ml against the environment file's folder, not the job's.
    monkeypatch.chdir(tmp_path)
    path = _job("single-step/gpu_perf/gpu_perf_job.yml")
    context = (path.parent / "environments" / "azureml").resolve()
    assert (context / "Dockerfile").is_file()
    assert _build_context(rest_form(path)) == context
    again = _export_elsewhere(path, tmp_path)
    assert _data(again)["environment"].startswith("file:")
    assert _build_context(rest_form(again)) == context
    assert rest_form(again) == rest_form(path)


def test_a_build_context_one_folder_up_from_the_environment_file(tmp_path, monkeypatch):
    # The same real job and Dockerfile, its env.yml moved one folder down with `build: path: ..`
    # (the `..` shape): still the Dockerfile's folder after export.
    monkeypatch.chdir(tmp_path)
    src = _job("single-step/gpu_perf/gpu_perf_job.yml").parent
    copy = tmp_path / "gpu_perf"
    shutil.copytree(src, copy)
    env_dir = copy / "environments" / "azureml"
    (env_dir / "conf").mkdir()
    env = yaml.safe_load((env_dir / "env.yml").read_text())
    (env_dir / "env.yml").unlink()
    (env_dir / "conf" / "env.yml").write_text(yaml.safe_dump(env | {"build": {"path": ".."}}))
    job = copy / "gpu_perf_job.yml"
    job.write_text(
        job.read_text().replace(
            "file:./environments/azureml/env.yml", "file:./environments/azureml/conf/env.yml"
        )
    )
    assert _build_context(rest_form(job)) == env_dir.resolve()
    again = _export_elsewhere(job, tmp_path)
    assert _build_context(rest_form(again)) == env_dir.resolve()
    assert rest_form(again) == rest_form(job)


@pytest.mark.parametrize("size", ["3100M", "1000G", "3100m"])
def test_shm_size_in_either_case_is_accepted_and_sent_as_written(size, tmp_path, monkeypatch):
    # Docker and azure-ai-ml take the unit in either case; the real Bert-Pretrain job writes
    # `shm_size: 3100m`, and this is it with the unit as others write it.
    monkeypatch.chdir(tmp_path)
    src = _job("Bert-Pretrain/AML-DeepSpeed-submit.yml")
    copy = tmp_path / "Bert-Pretrain"
    shutil.copytree(src.parent, copy)
    job = copy / src.name
    text = job.read_text()
    assert "shm_size: 3100m" in text
    job.write_text(
        text.replace("shm_size: 3100m", f"shm_size: {size}").replace(
            "compute: <Enter the name of your compute here>", "compute: azureml:gpu-cluster"
        )
    )
    spec = load_job_file(job)
    assert spec.shm_size == size
    again = _export_elsewhere(job, tmp_path)
    assert _data(again)["resources"]["shm_size"] == size
    assert rest_form(job)["properties"]["resources"]["shmSize"] == size
    assert rest_form(again) == rest_form(job)
