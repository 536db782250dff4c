"""The replay of an experiment's instance shows the teacher's uncharged play beside the student's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from continual_arc.core.actions import GiveUp, RequestDemos
from continual_arc.learner import UnchargedCopy
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.testing import GiveUpLearner
from continual_arc.tracks.registry import get_config
from continual_arc.view.catalog import build_catalog
from continual_arc.view.replay import replay_document


class Rehearsed(GiveUpLearner):
    """Gives up at once; its teacher first buys a demonstration of the copy, then gives up."""

    def teacher_play(self, copy: UnchargedCopy[Any, Any, Any]) -> None:
        copy.step(RequestDemos())
        copy.step(GiveUp())


def test_the_replay_holds_the_teachers_play_and_a_plain_one_none(tmp_path: Path) -> None:
    schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False).first_rounds(1)
    run(Rehearsed(), schedule, tmp_path / "taught")
    run(GiveUpLearner(), schedule, tmp_path / "plain")
    catalog = build_catalog([tmp_path])
    by_name = {entry.path.name: entry for entry in catalog.runs.values()}
    taught = replay_document(by_name["taught"], "0")
    assert [e["action"]["action"] for e in taught["teacher_play"]["events"]] == ["request_demos", "give_up"]
    assert taught["steps"] == replay_document(by_name["plain"], "0")["steps"]  # the student's, as if alone
    assert "teacher_play" not in replay_document(by_name["plain"], "0")
