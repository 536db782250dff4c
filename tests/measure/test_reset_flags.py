"""The flags on the reset reference, on hand-built records (docs/METRICS.md's worked examples).

A budget of 16 everywhere, so one unit of charge is 6.25 points. Every expected value is worked out
by hand in the comments.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.measure.compare import MismatchError
from continual_arc.measure.reset_flags import (
    FIRST_SIGHT_MARGIN,
    FloorPlay,
    below_floor,
    first_sight_gap,
    floor_notes,
    reset_flags,
)
from metrics_example import rec

Records = list[dict[str, Any]]


def _example() -> dict[str, Records]:
    """docs/METRICS.md, "the reset gives up": the stream's reset solves nothing."""
    return {
        # A first met at seed 1 (solved, charge 4), met again at seed 2; B first met at 3, unsolved.
        "stream": [rec("A", 1, 4), rec("A", 2, 0, exposure=1), rec("B", 3, 16)],
        "stream_reset": [rec("A", 1, 16), rec("A", 2, 16), rec("B", 3, 16)],
        "held_out": [rec("H", 5, 16, "held-out"), rec("I", 6, 16, "held-out")],
        "held_out_reset": [rec("H", 5, 16, "held-out"), rec("I", 6, 16, "held-out")],
        "seen_reset": [rec("A", 7, 8, "seen"), rec("B", 8, 16, "seen")],
    }


def test_a_reset_that_solves_nothing_is_flagged_where_the_learner_solved_at_first_sight() -> None:
    flags = reset_flags(**_example(), resamples=2000)  # type: ignore[arg-type]
    by_play = {g.play: g for g in flags.gave_up}
    # the stream's reset: 0 of 3 solved; the learner's first exposures of A and B: A solved, B not
    stream = by_play["stream"]
    assert (stream.reset_instances, stream.reset_solved) == (3, 0)
    assert (stream.learner_instances, stream.learner_solved) == (2, 1)
    assert stream.flagged
    # the held-out reset solved nothing, but neither did the learner: no flag
    assert not by_play["held-out"].flagged and by_play["held-out"].learner_solved == 0
    # the seen reset solved A's instance (charge 8): no flag
    assert by_play["seen"].reset_solved == 1 and not by_play["seen"].flagged
    assert flags.flagged
    assert flags.messages() == [
        "FLAG: the stream reset plays no better than giving up at once (it solved 0 of 3, the learner "
        "1 of 2 at first sight of the same tasks)"
    ]


def test_a_learner_that_solves_nothing_at_first_sight_is_not_flagged_for_a_reset_that_gives_up() -> None:
    # It solves A only on its return (memory its reset cannot have): the reset giving up is no news.
    plays = _example()
    plays["stream"] = [rec("A", 1, 16), rec("A", 2, 0, exposure=1), rec("B", 3, 16)]
    plays["seen_reset"] = [rec("A", 7, 16, "seen"), rec("B", 8, 16, "seen")]
    flags = reset_flags(**plays, resamples=2000)  # type: ignore[arg-type]
    assert [g.flagged for g in flags.gave_up] == [False, False, False]
    assert [g.reset_solved for g in flags.gave_up] == [0, 0, 0]
    assert not flags.flagged and flags.messages() == []


def test_the_first_sight_gap_of_the_worked_example_has_an_interval_reaching_zero() -> None:
    gap = reset_flags(**_example(), resamples=4000).first_sight  # type: ignore[arg-type]
    assert gap is not None
    # T_first: A saves 16 - 4 = 12 (75 points), B saves 0: 37.5 over two tasks. A resample of two
    # tasks reads 75 (A twice), 37.5 or 0 (B twice, probability 1/4): the interval is [0, 75].
    assert gap.first.value == pytest.approx(37.5)
    assert (gap.first.low, gap.first.high) == (0.0, 75.0)
    # T on the held-out test: 0 on both tasks, so the gap's draws are the first exposures' draws.
    assert gap.held_out.value == 0.0
    assert gap.gap.value == pytest.approx(37.5) and (gap.gap.low, gap.gap.high) == (0.0, 75.0)
    assert (gap.instances, gap.tasks) == (2, 2)
    assert not gap.flagged  # its lower end, 0, is not above the 10-point margin


def _partial_sandbag() -> dict[str, Records]:
    """docs/METRICS.md, "first sight": a reset that plays, but worse than the learner at first sight."""
    return {
        # first exposures: A and B each charged 4 (learner) against 16 (reset): 75 points saved each
        "stream": [rec("A", 1, 4), rec("B", 2, 4), rec("A", 3, 0, exposure=1)],
        "stream_reset": [rec("A", 1, 16), rec("B", 2, 16), rec("A", 3, 8)],
        # the held-out test: the same charge, 8, on each side of both tasks: T = 0
        "held_out": [rec("H", 5, 8, "held-out"), rec("I", 6, 8, "held-out")],
        "held_out_reset": [rec("H", 5, 8, "held-out"), rec("I", 6, 8, "held-out")],
        "seen_reset": [rec("A", 7, 4, "seen"), rec("B", 8, 16, "seen")],
    }


def test_a_reset_far_worse_at_first_sight_alone_is_flagged() -> None:
    flags = reset_flags(**_partial_sandbag(), resamples=2000)  # type: ignore[arg-type]
    assert not any(g.flagged for g in flags.gave_up)  # every reset play solved something
    gap = flags.first_sight
    assert gap is not None
    # every resample of the first exposures reads 75, of the held-out test 0: the interval is a point
    assert (gap.first.value, gap.held_out.value) == (75.0, 0.0)
    assert (gap.gap.value, gap.gap.low, gap.gap.high) == (75.0, 75.0, 75.0)
    assert gap.flagged and flags.flagged
    assert flags.messages() == [
        "FLAG: first sight: the reset spends 75.0 points more than the learner on the stream's first "
        "exposures, the held-out test only 0.0 (gap 75.0 [75.0, 75.0], above the 10-point margin)"
    ]


@pytest.mark.parametrize(
    ("first_saved", "held_saved", "flagged"),
    [
        (3, 1, True),  # 18.75 - 6.25 = 12.5 points: above the margin of 10
        (2, 1, False),  # 12.5 - 6.25 = 6.25 points: within it
        (3, 3, False),  # the held-out test shows the same gain
    ],
)
def test_the_gap_must_clear_the_margin(first_saved: int, held_saved: int, flagged: bool) -> None:
    # Both tasks of each side save the same, so every resample reads the value itself.
    first = {("A", 1): 6.25 * first_saved, ("B", 2): 6.25 * first_saved}
    held = {("H", 5): 6.25 * held_saved, ("I", 6): 6.25 * held_saved}
    gap = first_sight_gap(first, held, resamples=500)
    assert gap.gap.low == pytest.approx(6.25 * (first_saved - held_saved))
    assert gap.margin == FIRST_SIGHT_MARGIN == 10.0
    assert gap.flagged is flagged


def test_one_task_on_a_side_gives_no_interval_and_no_flag() -> None:
    gap = first_sight_gap({("A", 1): 100.0}, {("H", 5): 0.0, ("I", 6): 0.0}, resamples=500)
    assert gap.gap.value == 100.0 and gap.gap.low is None
    assert gap.gap.note == "fewer than two tasks on a side: no interval"
    assert not gap.flagged


def test_a_first_exposure_the_reset_never_met_is_read_against_its_mean_on_the_task() -> None:
    plays = _partial_sandbag()
    # a second user's first meeting of B (seed 9), which the reset never played: the reset's mean
    # on B is its one charge there, 16, so it saves 16 - 8 = 8 (50 points); B's total is 75 + 50.
    plays["stream"] = [*plays["stream"], rec("B", 9, 8)]
    gap = reset_flags(**plays, resamples=500).first_sight  # type: ignore[arg-type]
    assert gap is not None and gap.instances == 3
    assert gap.first.value == pytest.approx((75 + 75 + 50) / 3)


def test_held_out_plays_on_other_instances_are_refused() -> None:
    plays = _example()
    plays["held_out_reset"] = [rec("H", 5, 16, "held-out"), rec("I", 99, 16, "held-out")]
    with pytest.raises(MismatchError, match="held-out tests were not played on the same instances"):
        reset_flags(**plays, resamples=100)  # type: ignore[arg-type]


def test_without_the_stream_only_the_held_out_reset_is_read() -> None:
    plays = _example()
    plays["held_out"] = [rec("H", 5, 4, "held-out"), rec("I", 6, 16, "held-out")]
    flags = reset_flags(
        held_out=plays["held_out"], held_out_reset=plays["held_out_reset"], seen_reset=plays["seen_reset"]
    )
    assert [g.play for g in flags.gave_up] == ["held-out", "seen"]
    assert flags.gave_up[0].flagged  # reset 0 of 2, learner 1 of 2 on the same instances
    assert flags.first_sight is None
    assert flags.to_json()["messages"] == flags.messages()


# -- below the floor (docs/METRICS.md, "The reset plays below the floor") --------------------------


def _test_play(charges: dict[str, list[int]], phase: str = "seen") -> Records:
    """One record per charge, task by task, seeds numbered from 1 across the play."""
    out, seed = [], 0
    for task, values in charges.items():
        for charge in values:
            seed += 1
            out.append(rec(task, seed, charge, phase))
    return out


def test_a_reset_below_the_floor_on_every_task_is_flagged_with_the_hand_worked_interval() -> None:
    # Excess per task in points: A 75 (16 - 4), B 50 (16 - 8), C 0, D 25 (16 - 12). In 25-point units
    # a resample of four tasks sums to 0 with probability 1/256, to 1 with 4/256 (1.95 % in all),
    # to 2 with 10/256 (5.86 % in all): the 2.5th percentile is a sum of 2, a mean of 12.5 points.
    reset = _test_play({"A": [16], "B": [16], "C": [16], "D": [16]})
    floor = _test_play({"A": [4], "B": [8], "C": [16], "D": [12]})
    flag = below_floor("seen", reset, FloorPlay("the floor", floor), resamples=10_000)
    assert flag.excess.value == pytest.approx(37.5)  # (75 + 50 + 0 + 25) / 4
    assert flag.excess.low == pytest.approx(12.5) and flag.excess.high == pytest.approx(62.5)
    assert (flag.reset_used, flag.floor_used) == (100.0, pytest.approx(62.5))
    assert (flag.reset_solved, flag.floor_solved) == (0.0, 75.0)
    assert flag.flagged
    flags = reset_flags(
        held_out=[], held_out_reset=[], seen_reset=reset, floors={"seen": FloorPlay("the floor", floor)}
    )
    assert flags.flagged
    assert flags.messages() == [
        "FLAG: the seen reset plays below the floor (the floor): U 100.0 against 62.5, 37.5 points more "
        "[12.5, 62.5]"
    ]


def test_a_reset_below_the_floor_on_too_few_tasks_is_not_flagged() -> None:
    # Excess 75, 50, 0: a resample of C three times (1/27, 3.7 %) reads 0, so the lower end is 0.
    reset = _test_play({"A": [16], "B": [16], "C": [16]})
    floor = _test_play({"A": [4], "B": [8], "C": [16]})
    flag = below_floor("seen", reset, FloorPlay("the floor", floor), resamples=10_000)
    assert flag.excess.value == pytest.approx(125 / 3) and flag.excess.low == 0.0
    assert not flag.flagged


def test_a_reset_as_good_as_its_floor_or_better_is_not_flagged() -> None:
    reset = _test_play({"A": [4, 8], "B": [16], "C": [0]}, "held-out")
    assert not below_floor("held-out", reset, FloorPlay("f", reset)).flagged  # the library: its own floor
    worse_floor = _test_play({"A": [16, 16], "B": [16], "C": [16]}, "held-out")
    better = below_floor("held-out", reset, FloorPlay("f", worse_floor))
    # A saves 12 + 8, B nothing, C 16 of 16 charge units: every resample reads 0 or less
    assert better.excess.value == pytest.approx(-56.25) and better.excess.high == 0.0
    assert not better.flagged


def test_a_floor_not_played_is_said_and_never_flagged() -> None:
    reset = _test_play({"A": [16], "B": [16]})
    flags = reset_flags(held_out=[], held_out_reset=[], seen_reset=reset, floors={"seen": None})
    assert [b.floor for b in flags.below_floor] == [None, None]
    assert not flags.flagged and flags.messages() == []
    assert floor_notes(flags) == ["floor not played"]
    played = reset_flags(
        held_out=[], held_out_reset=[], seen_reset=reset, floors={"seen": FloorPlay("f", reset)}
    )
    assert floor_notes(played) == ["floor not played on the held-out test"]
    # without floors the floor flag is not read at all (the flags of old callers are unchanged)
    assert reset_flags(held_out=[], held_out_reset=[], seen_reset=reset).below_floor == []


def test_a_floor_played_on_other_instances_is_refused() -> None:
    reset = _test_play({"A": [16], "B": [16]})
    floor = _test_play({"A": [16], "B": [16], "C": [4]})
    with pytest.raises(MismatchError, match="seen test's reset and its floor"):
        below_floor("seen", reset, FloorPlay("f", floor))


def _exact_share_at_or_below_zero(excess: list[list[int]]) -> float:
    """Over every equally likely resample of the tasks, the share whose mean excess is 0 or less.

    The bootstrap's own distribution, enumerated: each of the ``n ** n`` ordered draws of ``n``
    tasks, the mean over the instances drawn (each task's instances together).
    """
    sums = [sum(t) for t in excess]
    draws = list(itertools.product(range(len(excess)), repeat=len(excess)))
    at_or_below = sum(sum(sums[i] for i in d) <= 0 for d in draws)
    return at_or_below / len(draws)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(min_value=-4, max_value=16), min_size=1, max_size=3), min_size=2, max_size=4
    )
)
def test_the_flag_fires_exactly_when_the_bootstrap_rarely_reaches_zero(excess: list[list[int]]) -> None:
    # Build a reset and a floor whose per-instance charge differences are the drawn excesses.
    charges = {f"T{i}": values for i, values in enumerate(excess)}
    reset = _test_play({t: [max(e, 0) for e in v] for t, v in charges.items()})
    floor = _test_play({t: [max(-e, 0) for e in v] for t, v in charges.items()})
    flag = below_floor("seen", reset, FloorPlay("f", floor), resamples=10_000)
    exact = _exact_share_at_or_below_zero(excess)
    counted = [e for task in excess for e in task]
    assert flag.excess.value == pytest.approx(100 * sum(counted) / 16 / len(counted))
    # Away from the 2.5 % boundary the sampled percentile cannot land on the other side of it.
    if exact <= 0.01:
        assert flag.flagged
    elif exact >= 0.05:
        assert not flag.flagged
    assert flag.flagged == (flag.excess.low is not None and flag.excess.low > 0)
