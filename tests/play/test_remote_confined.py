"""A remote learner in the kernel sandbox: it plays over the launcher's pipes, and its wall cap ends it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.core.sandbox import Confinement
from continual_arc.play.remote import RemoteLearnerError, remote_learner
from continual_arc.play.runner import run
from continual_arc.stream.schedule import test_schedule
from continual_arc.submit.confine import python_dirs
from continual_arc.tracks.registry import get_config

SLOW = """
import time

from continual_arc.testing import ToyRuleLearner


class Slow(ToyRuleLearner):
    '''Takes longer to build than its process may live.'''

    def __init__(self):
        time.sleep(60)
        super().__init__()
"""


def _rights(tmp_path: Path, learner: str, wall: float | None) -> Confinement:
    env = {"PYTHONPATH": str(tmp_path)}
    tmp_path.chmod(0o755)  # its processes run as nobody when the tests run as root
    return Confinement(read_dirs=tuple(python_dirs(learner, env)), wall_seconds=wall)


def test_a_confined_learner_answers_over_the_pipes_and_reports_its_isolation(tmp_path: Path) -> None:
    spec = {"class": "continual_arc.testing:ToyRuleLearner", "kwargs": {}}
    rights = _rights(tmp_path, spec["class"], None)
    learner = remote_learner(LearnerRef.of(spec), tmp_path / "w", confinement=rights, restart_on_reset=True)
    try:
        assert learner.resources() is not None
        learner.reset()  # nothing played yet: the process is kept
        learner.begin_round()
        learner.reset()  # a new process, confined as the first
    finally:
        learner.close()
    reports = learner.sandbox_reports()
    assert len(reports) == 2 and all(r["proxy_port"] is None for r in reports)
    for number in ("00000", "00001"):  # each process's report, apart from its folder
        assert (tmp_path / "w" / "logs" / number / "isolation.json").exists()
        assert not (tmp_path / "w" / "logs" / number / "launch.json").exists()
    assert sorted(p.name for p in (tmp_path / "w").iterdir()) == ["logs"]  # each process's folder went


def test_a_relative_working_folder_is_found_by_the_launcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # verify --out runs/v gives relative folders, while the launcher starts in the working folder
    monkeypatch.chdir(tmp_path)
    spec = {"class": "continual_arc.testing:ToyRuleLearner", "kwargs": {}}
    learner = remote_learner(
        LearnerRef.of(spec), Path("runs/w"), confinement=_rights(tmp_path, spec["class"], None)
    )
    try:
        assert learner.resources() is not None
        assert learner.workdir == tmp_path / "runs" / "w"
    finally:
        learner.close()
    report = learner.sandbox_reports()[0]
    assert report["file_bytes"] == 256 << 20  # the launcher read its config and wrote its report
    assert (tmp_path / "runs" / "w" / "logs" / "00000" / "isolation.json").is_file()


def test_each_instance_plays_in_a_process_of_its_own_and_none_is_wasted(tmp_path: Path) -> None:
    seen = test_schedule(get_config("toy-smoke"), 0, "seen", width=1)  # a reset before every instance
    spec = {"class": "continual_arc.testing:ToyRuleLearner", "kwargs": {}}
    rights = _rights(tmp_path, spec["class"], None)
    learner = remote_learner(LearnerRef.of(spec), tmp_path / "w", confinement=rights, restart_on_reset=True)
    try:
        records = run(learner, seen, tmp_path / "seen").records
    finally:
        learner.close()
    assert len(records) == 6  # toy-smoke's seen test: six instances
    assert len(learner.sandbox_reports()) == 6  # the first plays in the process built for the play


def test_the_wall_cap_ends_a_learner_process(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    rights = _rights(tmp_path, "slow:Slow", 1.0)
    with pytest.raises(RemoteLearnerError, match="wall-time cap"):
        remote_learner(
            LearnerRef.of({"class": "slow:Slow", "kwargs": {}}), tmp_path / "w", env=env, confinement=rights
        )
