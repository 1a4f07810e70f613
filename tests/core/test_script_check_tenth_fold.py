"""What the tenth and eleventh fresh sets (2026-11-27j and k, folded into the corpus) taught the
script check: a sub-command's flags are not read under a command that names another, and a
download inside `with FileLock(…)` takes turns. Each is run on the corpus script it came from,
as it is and with the change that makes it a finding."""

from __future__ import annotations

from tests.core.test_script_check_fourth_fold import check, lines

VERTEX = "tf_vertex_ps_horses/trainer/task.py"
SYNML = "horovod_synml_cifar_resnet.py"


def test_a_sub_commands_flags_are_not_read_under_another_sub_command():
    # GoogleCloudPlatform/vertex-parameter-server-training-demo: --task_type / --task_index
    # belong to `startserver`; the plan runs `train`
    assert lines(check(VERTEX), "tf_task_from_flags") == []
    same = ('"startserver", help="Start TensorFlow Distributed Server"', '"train", help="x"')
    assert lines(check(VERTEX, same), "tf_task_from_flags") == [51]


def test_a_download_under_a_file_lock_takes_turns():
    # synml/horovod-tutorial: CIFAR10(download=True) inside `with filelock.FileLock(...)`
    assert lines(check(SYNML), "download_race") == []
    unlocked = ("with filelock.FileLock('horovod.lock'):", "if True:")
    assert lines(check(SYNML, unlocked), "download_race") == [114]
