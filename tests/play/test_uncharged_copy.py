"""A teacher playing an uncharged copy of each instance first: the same instance, charged nowhere, marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from continual_arc.core.actions import DemosFeedback, GiveUp, RequestDemos
from continual_arc.core.files import read_json
from continual_arc.core.teacher import UNCHARGED_TEACHER
from continual_arc.learner import SpendCapReached, TeacherPlaysFirst, UnchargedCopy
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.testing import DemoBuyerLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")


class Rehearsed(DemoBuyerLearner):
    """Its teacher buys one demonstration of each copy and gives up; it then buys them all itself."""

    stateless = True

    def __init__(self, fault: BaseException | None = None) -> None:
        self.fault = fault
        self.teacher_saw: list[Any] = []
        self.student_saw: list[Any] = []

    def teacher_play(self, copy: UnchargedCopy[Any, Any, Any]) -> None:
        first = copy.view()
        assert first.demos_used == 0 and not copy.done
        feedback = copy.step(RequestDemos())
        assert isinstance(feedback, DemosFeedback)
        self.teacher_saw.append((first.task_id, first.input, feedback.pair))
        if self.fault is not None:
            raise self.fault
        copy.step(GiveUp())
        assert copy.done

    def observe(self, obs: Any, action: Any, feedback: Any) -> None:
        if isinstance(feedback, DemosFeedback) and feedback.demos_used == 1:
            self.student_saw.append((obs.task_id, obs.input, feedback.pair))


def test_the_copy_is_the_same_instance_charged_nowhere_and_the_record_is_marked(tmp_path: Path) -> None:
    learner = Rehearsed()
    assert isinstance(learner, TeacherPlaysFirst)
    schedule = build_schedule(TOY, 0, epilogue=False)
    records = run(learner, schedule, tmp_path / "r").records
    plain = run(DemoBuyerLearner(), schedule, tmp_path / "plain").records
    # the teacher met exactly the instances the student met, in order, each the same instance
    assert learner.teacher_saw == learner.student_saw and len(learner.teacher_saw) == len(records)
    for record, alone in zip(records, plain, strict=True):
        assert record["experiment"] == UNCHARGED_TEACHER
        # the student's own play is charged exactly as without a teacher: the copy's charge is nobody's
        assert (record["charge"], record["demos_bought"]) == (alone["charge"], alone["demos_bought"])
        trajectory = read_json(tmp_path / "r" / "i" / f"{record['step']}.json")
        play = trajectory["teacher_play"]
        assert [e["action"]["action"] for e in play["events"]] == ["request_demos", "give_up"]
        assert play["result"]["solved"] is False and play["fault"] is None
        assert len(trajectory["events"]) == record["demos_bought"] + 1  # the student's own events only
    assert all("experiment" not in r for r in plain)


def test_a_fault_in_the_teachers_play_is_kept_and_the_student_plays_on(tmp_path: Path) -> None:
    records = run(
        Rehearsed(RuntimeError("harness crashed")), build_schedule(TOY, 0, epilogue=False), tmp_path / "r"
    ).records
    assert all(r["error"] is None and r["experiment"] == UNCHARGED_TEACHER for r in records)
    play = read_json(tmp_path / "r" / "i" / "0.json")["teacher_play"]
    assert play["fault"] == "RuntimeError: harness crashed" and play["result"] is None


def test_the_spend_cap_in_the_teachers_play_stops_the_run(tmp_path: Path) -> None:
    capped = Rehearsed(SpendCapReached("teacher at its cap"))
    result = run(capped, build_schedule(TOY, 0, epilogue=False), tmp_path / "r")
    assert result.stopped is not None and result.stopped["round"] == 0 and result.records == []
