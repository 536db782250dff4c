"""The protocol's plan: six plays, each listed once, each after what it waits for."""

from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.core.config import TESTS
from continual_arc.protocol.plan import PLAN, PlannedPlay, ProtocolPlan, stream_start
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.stream.users import with_users
from continual_arc.tracks.registry import get_config

EXPECTED = {
    # name: (test, reset, waits for)
    "stream": (None, False, ()),
    "stream-reset": (None, True, ()),
    "held-out": ("held-out", False, ("stream",)),
    "held-out-reset": ("held-out", True, ()),
    "seen": ("seen", False, ("stream",)),
    "seen-reset": ("seen", True, ()),
}


def test_the_plan_holds_the_six_plays_of_the_reference() -> None:
    assert {p.name: (p.test, p.reset, p.after) for p in PLAN} == EXPECTED
    assert set(TESTS) == {"held-out", "seen"}


def test_the_held_out_reset_starts_beside_the_stream_and_the_tests_last() -> None:
    # The held-out reset shares no search with the stream, so it is the one that runs beside it.
    assert PLAN.names[:2] == ("stream", "held-out-reset")
    assert PLAN.names[-2:] == ("held-out", "seen")


def test_one_by_one_hands_the_stream_to_the_tests_before_any_reset() -> None:
    order = [p.name for p in PLAN.one_by_one()]
    assert order[:3] == ["stream", "held-out", "seen"]
    assert sorted(order) == sorted(EXPECTED)


def test_ready_follows_what_each_play_waits_for() -> None:
    assert [p.name for p in PLAN.ready(set())] == ["stream", "held-out-reset", "stream-reset", "seen-reset"]
    assert [p.name for p in PLAN.ready({"stream"})] == ["held-out-reset", "stream-reset", "seen-reset",
                                                        "held-out", "seen"]  # fmt: skip
    assert PLAN.ready(set(EXPECTED)) == ()


def test_each_test_is_read_against_its_own_reset() -> None:
    assert PLAN.reset_of("seen").name == "seen-reset"
    assert PLAN.reset_of("stream").name == "stream-reset"
    with pytest.raises(KeyError, match="no play 'nope'"):
        PLAN["nope"]


def test_a_plan_out_of_order_is_refused() -> None:
    with pytest.raises(ValueError, match="before a play it waits for"):
        ProtocolPlan(
            (PlannedPlay("held-out", "held-out", False, ("stream",)), PlannedPlay("stream", None, False))
        )
    with pytest.raises(ValueError, match="listed twice"):
        ProtocolPlan((PlannedPlay("stream", None, False), PlannedPlay("stream", None, True)))


def test_only_the_tests_start_from_the_stream(tmp_path: Path) -> None:
    state = tmp_path / "state"
    for play in PLAN:
        start = stream_start(tmp_path, play, state)
        expected = (state, tmp_path / "stream" / "alias-salt") if play.name in TESTS else (None, None)
        assert start == expected, play.name


def test_the_schedules_are_the_streams_and_the_tests_as_built_directly() -> None:
    config = with_users(get_config("toy-smoke"), 2)
    schedules = PLAN.schedules(config, 3, test_width=2)
    assert schedules["stream"] == build_schedule(config, 3, epilogue=False)
    assert schedules["stream-reset"] == build_schedule(config, 3, epilogue=False, reset_each=True)
    for test in TESTS:
        assert schedules[test] == test_schedule(config, 3, test, width=2)
        assert schedules[f"{test}-reset"] == test_schedule(config, 3, test, width=1)
