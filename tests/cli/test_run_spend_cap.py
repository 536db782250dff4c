"""``continual-arc run`` stopped by the spend cap: its sentence, its exit status, ``report``, ``--resume``."""

from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.play.faults import SPEND_CAP_STATUS
from continual_arc.play.rundir import STOPPED, read_records
from continual_arc.stream.schedule import Schedule

CAPPED = '''
import os

from continual_arc.learner import SpendCapReached
from continual_arc.testing import ToyRuleLearner


class Capped(ToyRuleLearner):
    """The toy learner; its act number $CAPPED_ACTS + 1 is refused under the spend cap."""

    def __init__(self, keep=True):
        super().__init__(keep)
        self.acts = 0

    def act(self, obs):
        self.acts += 1
        allowed = os.environ.get("CAPPED_ACTS")
        if allowed and self.acts > int(allowed):
            raise SpendCapReached("the tracking proxy refused the call under its spend cap")
        return super().act(obs)
'''


def test_a_run_stopped_at_the_cap_says_so_exits_3_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "capped_learner.py").write_text(CAPPED)
    monkeypatch.syspath_prepend(str(tmp_path))
    schedule, out = tmp_path / "s.json", tmp_path / "run"
    assert main(["schedule", "make", "--config", "toy-smoke", "--no-epilogue", "--out", str(schedule)]) == 0
    argv = ["run", "--learner", "capped_learner:Capped", "--schedule", str(schedule), "--out", str(out)]
    monkeypatch.setenv("CAPPED_ACTS", "4")
    capsys.readouterr()
    assert main(argv) == SPEND_CAP_STATUS == 3
    err = capsys.readouterr().err.strip().splitlines()
    done = len(read_records(out))
    slots = len(Schedule.load(schedule).slots)
    assert 0 < done < slots
    assert err[-1].startswith(f"continual-arc: stopped at the spend cap after {done} of {slots} slots")
    assert (out / STOPPED).exists()
    assert main(["report", str(out)]) == 0
    assert f"stopped at the spend cap after {done} of " in capsys.readouterr().out
    monkeypatch.delenv("CAPPED_ACTS")  # the cap raised
    assert main([*argv, "--resume"]) == 0
    assert not (out / STOPPED).exists() and len(read_records(out)) > done
    assert len(read_records(out)) == slots
