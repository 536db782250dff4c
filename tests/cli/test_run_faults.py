"""A learner's own faults at the command line: a syntax error in one line, errored instances at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.stream.schedule import Schedule

RAISING = '''
from continual_arc.env import GiveUp
from continual_arc.learner import BaseLearner


class Raiser(BaseLearner):
    """Raises in act on every instance, or on the first instance of the stream alone."""

    stateless = True

    def __init__(self, every=True):
        self.every = every

    def act(self, obs):
        if self.every or obs.step == 0:
            raise ValueError("no idea")
        return GiveUp()
'''


@pytest.fixture
def learners(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on the path holding a raising learner and a module with a syntax error on line 3."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "raising_learner.py").write_text(RAISING)
    (folder / "broken_learner.py").write_text("import os\n\ndef act(self:\n    pass\n")
    monkeypatch.syspath_prepend(str(folder))
    return folder


def _schedule(tmp_path: Path) -> Path:
    path = tmp_path / "s.json"
    assert main(["schedule", "make", "--config", "toy-smoke", "--no-epilogue", "--out", str(path)]) == 0
    return path


def test_a_syntax_error_in_the_learners_module_is_one_sentence(
    learners: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schedule = _schedule(tmp_path)
    capsys.readouterr()
    argv = ["run", "--learner", "broken_learner:Learner", "--schedule", str(schedule)]
    assert main([*argv, "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    where = learners / "broken_learner.py"
    assert err.startswith(
        f"continual-arc: error: cannot import learner module 'broken_learner': {where}, line 3: "
    )
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("every", "status", "line"),
    [
        (
            True,
            2,
            "error: every one of the {n} instances ended in a learner error, so the numbers above "
            "measure the budget, not the learner (the first: ValueError in act: no idea)",
        ),
        (
            False,
            0,
            "warning: 1 of {n} instances ended in a learner error, each charged the whole budget "
            "(the first: ValueError in act: no idea)",
        ),
    ],
    ids=["every-instance", "one-instance"],
)
def test_run_of_a_learner_that_raises_ends_with_one_line(
    every: bool, status: int, line: str, learners: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schedule = _schedule(tmp_path)
    slots = len(Schedule.load(schedule).slots)
    out = tmp_path / "run"
    argv = [
        "run",
        "--learner",
        "raising_learner:Raiser",
        "--learner-kwargs",
        f'{{"every": {str(every).lower()}}}',
    ]
    assert main([*argv, "--schedule", str(schedule), "--out", str(out)]) == status
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == f"continual-arc: {line.format(n=slots)}; continual-arc report {out} lists them"


@pytest.mark.heavy
def test_protocol_of_a_learner_that_raises_everywhere_exits_2(
    learners: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p"
    argv = ["protocol", "--learner", "raising_learner:Raiser", "--config", "toy-smoke", "--out", str(out)]
    assert main([*argv, "--jobs", "1", "--resamples", "100", "--no-plots"]) == 2
    captured = capsys.readouterr()
    assert "written to" in captured.out  # the protocol is whole: the line comes after it
    last = captured.err.strip().splitlines()[-1]
    assert (
        last.startswith("continual-arc: error: every one of the ") and "(the first: ValueError in act" in last
    )
    assert last.endswith(f"continual-arc report {out / 'stream'} lists them")


def test_a_learner_that_never_raises_ends_quietly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schedule = _schedule(tmp_path)
    argv = ["run", "--learner", "continual_arc.testing:GiveUpLearner", "--schedule", str(schedule)]
    assert main([*argv, "--out", str(tmp_path / "run")]) == 0
    assert "learner error" not in capsys.readouterr().err
