"""A learner refused by the spend cap stops the run cleanly (issue 38, item 5).

Every committed round stays as it is, the round in progress is named in ``stopped.json`` and the
summary, and a resume with a raised cap plays that round again and finishes as a straight run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from continual_arc.core.actions import Action, LearnerObservation
from continual_arc.core.errors import SpendCapReached
from continual_arc.core.files import read_json
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import STOPPED, SUMMARY, read_records
from continual_arc.runner import RunOptions, run, stop_sentence
from continual_arc.stream.schedule import build_schedule
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config

STREAM = build_schedule(get_config("toy-smoke"), 0, epilogue=False)


class Capped(ToyRuleLearner):
    """The toy learner, whose every ``act`` is a model call that a cap of ``allowed`` calls refuses."""

    allowed: ClassVar[int | None] = None  # the cap, set by each test (the same class resumes)

    def __init__(self, keep: bool = True) -> None:
        super().__init__(keep)
        self.acts = 0

    def act(self, obs: LearnerObservation) -> Action:
        self.acts += 1
        if Capped.allowed is not None and self.acts > Capped.allowed:
            raise SpendCapReached(f"call {self.acts} refused: the cap pays for {Capped.allowed}")
        return super().act(obs)


def timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


@pytest.fixture
def straight(tmp_path: Path) -> list[dict[str, Any]]:
    Capped.allowed = None
    return run(Capped(), STREAM, tmp_path / "straight").records


def test_a_run_stopped_by_the_cap_keeps_its_committed_rounds_and_names_the_stopped_one(
    straight: list[dict[str, Any]], tmp_path: Path
) -> None:
    Capped.allowed = 5
    out = tmp_path / "capped"
    (out).mkdir()
    (out / "alias-salt").write_bytes((tmp_path / "straight" / "alias-salt").read_bytes())
    result = run(Capped(), STREAM, out)
    records = read_records(out)
    assert result.stopped is not None and records == result.records
    # The round in progress is the one whose act was refused: the rounds before it are committed.
    acts = [sum(1 for a in r["actions"]) for r in straight]  # one act per action taken
    refused_at = next(n for n in range(len(acts)) if sum(acts[: n + 1]) > 5)
    stopped_round = straight[refused_at]["round"]
    committed = [r for r in straight if r["round"] < stopped_round]
    assert timeless(records) == timeless(committed) and 0 < len(committed) < len(straight)
    stopped = read_json(out / STOPPED)
    assert stopped == result.stopped == read_json(out / SUMMARY)["stopped"]
    assert stopped == {
        "by": "spend_cap",
        "round": stopped_round,
        "slots_done": len(committed),
        "slots_total": len(STREAM.slots),
        "message": "call 6 refused: the cap pays for 5",
    }
    assert stop_sentence(stopped).startswith(
        f"stopped at the spend cap after {len(committed)} of {len(STREAM.slots)} slots"
    )


def test_a_run_resumed_with_a_raised_cap_finishes_as_a_straight_run(
    straight: list[dict[str, Any]], tmp_path: Path
) -> None:
    out = tmp_path / "capped"
    out.mkdir()
    (out / "alias-salt").write_bytes((tmp_path / "straight" / "alias-salt").read_bytes())
    Capped.allowed = 5
    assert run(Capped(), STREAM, out).stopped is not None
    Capped.allowed = None  # the cap raised
    result = run(Capped(), STREAM, out, RunOptions(resume=True))
    assert result.stopped is None and not (out / STOPPED).exists()
    assert "stopped" not in read_json(out / SUMMARY)
    assert timeless(read_records(out)) == timeless(straight)
