"""``continual-arc protocol`` stopped by the spend cap: exit status 3, its rounds kept, resumed past it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.env import Action, LearnerObservation
from continual_arc.learner import SpendCapReached
from continual_arc.play.faults import SPEND_CAP_STATUS
from continual_arc.play.rundir import STOPPED, read_records
from continual_arc.protocol.plays import PROTOCOL_PLAYS, play_finished
from continual_arc.testing import ToyRuleLearner


class Metered(ToyRuleLearner):
    """The toy rule learner, each of whose actions is paid from a budget kept in files.

    ``budget`` names a file holding how many actions the whole protocol may pay for (the cap,
    raised by rewriting it); ``<budget>.spent`` counts those paid. An action past the budget
    raises `SpendCapReached`, as a model learner does when the tracking proxy refuses its call.
    """

    def __init__(self, budget: str, keep: bool = True) -> None:
        super().__init__(keep)
        self.budget = Path(budget)

    def act(self, obs: LearnerObservation) -> Action:
        spent_file = self.budget.with_name(self.budget.name + ".spent")
        spent = int(spent_file.read_text()) if spent_file.exists() else 0
        if spent >= int(self.budget.read_text()):
            raise SpendCapReached(f"the budget of {self.budget.read_text().strip()} actions is spent")
        spent_file.write_text(str(spent + 1))
        return super().act(obs)


def _protocol(out: Path, budget: Path) -> list[str]:
    kwargs = json.dumps({"budget": str(budget)})
    return [
        *("protocol", "--learner", "test_protocol_cap:Metered", "--learner-kwargs", kwargs),
        *("--config", "toy-smoke", "--out", str(out), "--jobs", "1", "--resamples", "200", "--no-plots"),
        "--no-floor",
    ]


def test_a_protocol_stopped_by_the_cap_exits_3_keeps_its_rounds_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, budget = tmp_path / "p", tmp_path / "budget"
    budget.write_text("5\n")
    assert main(_protocol(out, budget)) == SPEND_CAP_STATUS
    stream = out / PROTOCOL_PLAYS["stream"]
    stopped = read_json(stream / STOPPED)
    kept = read_records(stream)
    err = capsys.readouterr().err
    # The stream's rounds committed before the stop are all there, the stopped one named.
    assert stopped["by"] == "spend_cap" and stopped["slots_done"] == len(kept)
    assert 0 < len(kept) < 5 and all(r["round"] < stopped["round"] for r in kept)
    sentence = f"stopped at the spend cap after {len(kept)} of {stopped['slots_total']} slots"
    assert f"{stream}: {sentence}" in err
    assert not play_finished(stream) and not (out / "protocol.json").exists()
    assert read_json(stream / "summary.json")["stopped"] == stopped
    # No other play started after the stop.
    assert not any(
        (out / play / "meta.json").exists() for play in PROTOCOL_PLAYS.values() if play != "stream"
    )
    assert main(["report", str(stream)]) == 0
    assert sentence in capsys.readouterr().out
    # With a raised cap the same command continues from there and finishes the protocol.
    budget.write_text("100000\n")
    assert main(_protocol(out, budget)) == 0
    assert not (stream / STOPPED).exists() and (out / "protocol.json").exists()
    assert read_records(stream)[: len(kept)] == kept
    # It plays what a protocol never stopped plays (another directory: other task names).
    whole, free = tmp_path / "whole", tmp_path / "free"
    free.write_text("100000\n")
    assert main(_protocol(whole, free)) == 0
    assert outcomes(read_records(stream)) == outcomes(read_records(whole / PROTOCOL_PLAYS["stream"]))


def outcomes(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["step"], r["task_id"], r["end"], r["charge"]) for r in records]


class StopsOnItsStream(ToyRuleLearner):
    """The toy rule learner, stopped by the cap after ``after`` actions of a play that never resets.

    While the file ``stop`` exists: so the stream stops, and its reset (reset before every
    instance) plays on; removing the file is raising the cap.
    """

    def __init__(self, stop: str, after: int = 3, keep: bool = True) -> None:
        super().__init__(keep)
        self.stop, self.after, self.acted, self.was_reset = Path(stop), after, 0, False

    def reset(self) -> None:
        super().reset()
        self.was_reset = True

    def act(self, obs: LearnerObservation) -> Action:
        self.acted += 1
        if self.stop.exists() and not self.was_reset and self.acted > self.after:
            raise SpendCapReached("the stream's budget is spent")
        return super().act(obs)


def test_in_processes_no_play_starts_after_the_cap_stopped_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, stop = tmp_path / "p", tmp_path / "stop"
    stop.touch()
    kwargs = json.dumps({"stop": str(stop)})
    args = [
        *("protocol", "--learner", "test_protocol_cap:StopsOnItsStream", "--learner-kwargs", kwargs),
        *("--config", "toy-smoke", "--out", str(out), "--jobs", "2", "--resamples", "200", "--no-plots"),
        "--no-floor",
    ]
    assert main(args) == SPEND_CAP_STATUS
    stream = out / PROTOCOL_PLAYS["stream"]
    assert (stream / STOPPED).exists() and f"{stream}: stopped at the spend cap" in capsys.readouterr().err
    # The tests wait for the stream: none started. The stream's reset may have played beside it.
    for play in ("held-out", "seen"):
        assert not (out / PROTOCOL_PLAYS[play] / "meta.json").exists()
    stop.unlink()
    assert main(args) == 0
    assert all(play_finished(out / play) for play in PROTOCOL_PLAYS.values())
    assert (out / "protocol.json").exists()
