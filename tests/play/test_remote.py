from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.options import RunOptions
from continual_arc.play.remote import RemoteLearnerError, remote_learner
from continual_arc.play.rundir import read_records
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")
RULES = LearnerRef("continual_arc.testing:ToyRuleLearner")


def _timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


def test_a_remote_learner_plays_as_the_learner_itself(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0)
    here = run(ToyRuleLearner(), schedule, tmp_path / "here", RunOptions(learner=RULES)).records
    (tmp_path / "there").mkdir()
    shutil.copy(tmp_path / "here" / "alias-salt", tmp_path / "there")
    learner = remote_learner(RULES, tmp_path / "work")
    try:
        assert callable(getattr(learner, "save_state", None)) and not hasattr(learner, "memory")
        there = run(learner, schedule, tmp_path / "there", RunOptions(learner=RULES)).records
    finally:
        learner.close()
    assert _timeless(there) == _timeless(here)
    assert (tmp_path / "there" / "state").is_dir()  # its state crossed out through save_state


class Amnesiac(ToyRuleLearner):
    """Keeps its rules in memory only: no files, so nothing survives a new process."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("save_state", "load_state"):
            raise AttributeError(name)
        return super().__getattribute__(name)


@pytest.mark.heavy
def test_a_new_process_on_reset_carries_only_the_files(tmp_path: Path) -> None:
    stream = build_schedule(TOY, 0, epilogue=False)
    learner = remote_learner(RULES, tmp_path / "work")
    run(learner, stream, tmp_path / "stream", RunOptions(learner=RULES))
    learner.close()
    state = sorted((tmp_path / "stream" / "state").glob("round-*"))[-1]
    seen = test_schedule(TOY, 0, "seen", width=1)  # every instance after a reset
    for name, start in (("kept", state), ("nothing", None)):
        (tmp_path / name).mkdir()
        shutil.copy(tmp_path / "stream" / "alias-salt", tmp_path / name)
        tester = remote_learner(RULES, tmp_path / f"work-{name}", restart_on_reset=True, start_state=start)
        try:
            run(tester, seen, tmp_path / name, RunOptions(learner=RULES))
        finally:
            tester.close()
    kept, nothing = read_records(tmp_path / "kept"), read_records(tmp_path / "nothing")
    assert all(r["charge"] == 0 for r in kept)  # the saved rules answer at once, in every new process
    assert all(r["demos_bought"] >= 1 for r in nothing)  # a fresh process must buy to learn


CHATTY = """
from continual_arc.env import GiveUp
from continual_arc.learner import BaseLearner


class Chatty(BaseLearner):
    stateless = True

    def act(self, obs):
        print("thinking out loud on stdout")  # must not be taken for a reply
        if obs.step == 1:
            raise ValueError("no idea")
        return GiveUp()
"""


def test_a_learner_that_cannot_be_built_prints_or_raises(tmp_path: Path) -> None:
    with pytest.raises(RemoteLearnerError, match="LearnerSpecError in start"):
        remote_learner(LearnerRef.of({"class": "no.such:Learner", "kwargs": {}}), tmp_path / "a")
    (tmp_path / "chatty.py").write_text(CHATTY)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    learner = remote_learner(LearnerRef.of({"class": "chatty:Chatty", "kwargs": {}}), tmp_path / "b", env=env)
    try:
        records = run(learner, build_schedule(TOY, 0, rounds=3), tmp_path / "run").records
    finally:
        learner.close()
    assert [r["end"] for r in records] == ["gave up", "learner error", "gave up"]
    assert records[1]["error"]["message"] == "ValueError in act: no idea"
    assert "thinking out loud" in (tmp_path / "b" / "logs" / "00000" / "stderr.txt").read_text()
