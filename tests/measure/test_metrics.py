from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.measure.bootstrap import ratio_estimate
from continual_arc.measure.budget import budget_used, share_solved
from continual_arc.measure.compare import MismatchError, share_learned, share_saved
from continual_arc.measure.diagnostics import (
    acquisition_cost,
    cost_by_exposure,
    learning_curve,
    retention_by_gap,
)
from continual_arc.measure.report import SHARE_DIGITS, format_learned, format_level_score, tiny_budget_note
from continual_arc.measure.summary import phase_table


def rec(
    task: str,
    seed: int,
    charge: int,
    *,
    phase: str = "stream",
    exposure: int = 0,
    gap: int | None = None,
    step: int = 0,
    round_: int | None = None,
    user: int = 0,
    solved: bool | None = None,
) -> dict[str, Any]:
    return {
        "task_id": task,
        "seed": seed,
        "charge": charge,
        "max_cost": 16,
        "solved": charge < 16 if solved is None else solved,
        "phase": phase,
        "exposure_index": exposure,
        "gap": gap,
        "step": step,
        "round": step if round_ is None else round_,
        "user": user,
        "episode_type": "primary",
    }


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_budget_used_and_share_solved_by_hand() -> None:
    records = [rec("a", 1, 0), rec("a", 2, 4), rec("b", 3, 16)]
    assert budget_used(records) == pytest.approx(100 * 20 / 48)
    assert share_solved(records) == pytest.approx(200 / 3)
    assert budget_used([]) is None
    addon = {**rec("c", 9, 16), "episode_type": "addon"}
    table = phase_table([*records, addon])
    assert table["stream"]["instances"] == 3  # the plug-in's episode never counts


TEST_LEARNER = [rec("A", 1, 0, phase="seen"), rec("A", 2, 4, phase="seen"), rec("B", 3, 16, phase="seen")]
TEST_RESET = [rec("A", 1, 8, phase="seen"), rec("A", 2, 8, phase="seen"), rec("B", 3, 16, phase="seen")]


def test_share_saved_and_t_by_hand() -> None:
    c = share_saved([TEST_LEARNER], [TEST_RESET], test="seen")
    # U(learner) = 100 * 20/48, U(reset) = 100 * 32/48; share = 1 - 20/32; T = 100 * 12/48
    assert c.learner["budget_used"] == pytest.approx(41.6667, abs=1e-4)
    assert c.reset["budget_used"] == pytest.approx(66.6667, abs=1e-4)
    assert c.share_saved.value == pytest.approx(0.375)
    assert c.saving.value == pytest.approx(25.0)
    assert c.learner["share_solved"] == pytest.approx(200 / 3)
    assert (c.instances, c.tasks) == (3, 2)
    assert c.share_saved.low is not None and c.share_saved.low <= 0.375 <= c.share_saved.high  # type: ignore[operator]
    again = share_saved([TEST_LEARNER], [TEST_RESET], test="seen")
    assert again.share_saved == c.share_saved  # same seed, same interval


def test_the_bootstrap_resamples_whole_tasks() -> None:
    c = share_saved([TEST_LEARNER], [TEST_RESET], test="seen")
    # Task A saves 12 of 16, task B 0 of 16: a resample of tasks can only give 0, 12/32 or 12/16.
    assert {round(c.share_saved.low, 6), round(c.share_saved.high, 6)} <= {0.0, 0.375, 0.75}  # type: ignore[arg-type]


def test_several_plays_are_read_as_their_mean_on_each_instance() -> None:
    second = [rec("A", 1, 4, phase="seen"), rec("A", 2, 4, phase="seen"), rec("B", 3, 16, phase="seen")]
    c = share_saved([TEST_LEARNER, second], [TEST_RESET], test="seen")
    # per instance: A1 (0+4)/2 = 2, A2 4, B 16 -> 22 of the reset's 32
    assert c.share_saved.value == pytest.approx(1 - 22 / 32)
    assert c.plays == {"learner": 2, "reset": 1, "bare": 0}
    reset_two = [rec("A", 1, 16, phase="seen"), rec("A", 2, 8, phase="seen"), rec("B", 3, 16, phase="seen")]
    c = share_saved([TEST_LEARNER], [TEST_RESET, reset_two], test="seen")
    assert c.share_saved.value == pytest.approx(1 - 20 / 36)  # reset: A1 12, A2 8, B 16


def test_runs_on_other_instances_are_refused_with_the_reason() -> None:
    other = [rec("A", 1, 0, phase="seen"), rec("A", 99, 4, phase="seen"), rec("B", 3, 16, phase="seen")]
    with pytest.raises(
        MismatchError, match=r"not played on the same instances.*1 instance\(s\), e.g. task A seed 2"
    ):
        share_saved([TEST_LEARNER], [other], test="seen")
    with pytest.raises(MismatchError, match="learner play 2 was not played on the instances"):
        share_saved([TEST_LEARNER, other], [TEST_RESET], test="seen")


def test_bare_model_shown_beside_and_flagged_when_the_reset_plays_below_it() -> None:
    bare = [rec("A", 1, 4, phase="seen"), rec("A", 2, 4, phase="seen"), rec("B", 3, 16, phase="seen")]
    c = share_saved([TEST_LEARNER], [TEST_RESET], test="seen", bare_plays=[bare])
    assert c.bare[0]["budget_used"] == pytest.approx(50.0)
    assert c.reset_below_bare is True  # the reset used 66.7, the bare model 50
    assert share_saved([TEST_LEARNER], [TEST_RESET], test="seen").reset_below_bare is None


def test_degenerate_cases_have_defined_values_and_notes() -> None:
    free = [rec("A", 1, 0, phase="seen"), rec("B", 2, 0, phase="seen")]
    c = share_saved([free], [free], test="seen")
    assert c.share_saved.value is None and "reset spent nothing" in (c.share_saved.note or "")
    assert c.saving.value == 0.0
    one = share_saved([[rec("A", 1, 4, phase="seen")]], [[rec("A", 1, 8, phase="seen")]], test="seen")
    assert one.share_saved.value == 0.5 and one.share_saved.low is None
    assert one.share_saved.note == "one task: no interval"
    half = ratio_estimate([1.0, 1.0], [0.0, 2.0], rng(), resamples=2000)
    assert half.value == 1.0 and half.note is not None and "resamples undefined" in half.note
    assert ratio_estimate([], [], rng()).note == "no instances"


LEARNER_STREAM = [
    rec("A", 1, 8, exposure=0, step=0),
    rec("A", 2, 0, exposure=1, gap=1, step=1),
    rec("B", 3, 16, exposure=0, step=2),
    rec("A", 4, 0, exposure=2, gap=2, step=3),
    rec("B", 5, 4, exposure=1, gap=2, step=4),
]
RESET_STREAM = [
    rec("A", 1, 8, exposure=0, step=0),
    rec("A", 2, 6, exposure=1, gap=1, step=1),
    rec("B", 3, 16, exposure=0, step=2),
    rec("A", 4, 4, exposure=2, gap=2, step=3),
    rec("B", 5, 12, exposure=1, gap=2, step=4),
]


def test_share_learned_by_hand() -> None:
    r = share_learned(LEARNER_STREAM, RESET_STREAM)
    # learner 28, reset 46, perfect memory 8 + 16 = 24 (the reset's first meetings, nothing after)
    assert r.share_learned.value == pytest.approx(18 / 22)
    assert r.learnable_budget == pytest.approx(100 * 22 / 80)
    assert r.perfect_memory == pytest.approx(100 * 24 / 80)
    assert r.reset["budget_used"] == pytest.approx(100 * 46 / 80)
    assert r.learner["budget_used"] == pytest.approx(100 * 28 / 80)
    assert r.matched_by_task_mean == 0


def test_an_instance_the_reset_never_met_is_read_against_its_mean_on_the_task() -> None:
    learner = [*LEARNER_STREAM, rec("B", 77, 2, exposure=2, gap=1, step=5)]
    r = share_learned(learner, RESET_STREAM)
    # the new instance: reference (16 + 12) / 2 = 14, perfect memory 0 -> learner 30, reset 60, pm 24
    assert r.share_learned.value == pytest.approx(30 / 36)
    assert r.matched_by_task_mean == 1
    with pytest.raises(MismatchError, match="never met 1 task"):
        share_learned([*LEARNER_STREAM, rec("Z", 1, 0, step=9)], RESET_STREAM)


def test_share_learned_zero_learnable_budget_is_a_note() -> None:
    flat = [rec("A", 1, 8), rec("A", 2, 0, exposure=1, gap=1, step=1)]
    r = share_learned(flat, flat)
    assert r.share_learned.value is None and "nothing to learn" in (r.share_learned.note or "")


def test_diagnostics_by_hand() -> None:
    assert acquisition_cost(LEARNER_STREAM) == {"instances": 2, "mean_charge": 75.0, "share_solved": 50.0}
    by_exposure = cost_by_exposure(LEARNER_STREAM)
    assert list(by_exposure) == ["0", "1", "2"]
    assert by_exposure["1"]["mean_charge"] == pytest.approx(12.5)  # (0 + 4) / 2 out of 16
    gaps = retention_by_gap(LEARNER_STREAM)
    assert gaps == {
        "1": {"instances": 1, "mean_charge": 0.0, "share_solved": 100.0},
        "2-3": {"instances": 2, "mean_charge": 12.5, "share_solved": 100.0},
    }
    curve = learning_curve(LEARNER_STREAM, window=2)
    assert curve["mean_charge"] == [50.0, 0.0, 100.0, 0.0, 25.0]
    assert curve["moving"] == [50.0, 25.0, 50.0, 50.0, 12.5]
    assert curve["budget_used"][-1] == pytest.approx(100 * 28 / 80)


task_charges = st.lists(st.lists(st.integers(0, 16), min_size=1, max_size=5), min_size=1, max_size=12)


def _stream(charges: list[list[int]]) -> list[dict[str, Any]]:
    out, step = [], 0
    for t, row in enumerate(charges):
        for k, charge in enumerate(row):
            out.append(rec(f"t{t}", 1000 * t + k, charge, exposure=k, gap=None if k == 0 else 1, step=step))
            step += 1
    return out


@settings(max_examples=80, deadline=None)
@given(task_charges)
def test_a_learner_identical_to_its_reset_saves_and_learns_nothing(charges: list[list[int]]) -> None:
    stream = _stream(charges)
    learned = share_learned(stream, stream, resamples=200)
    returns = sum(c for row in charges for c in row[1:])
    if returns:
        assert learned.share_learned.value == 0.0
    else:
        assert learned.share_learned.value is None
    test = [{**r, "phase": "seen"} for r in stream]
    saved = share_saved([test], [test], test="seen", resamples=200)
    assert saved.saving.value == 0.0
    assert saved.share_saved.value == (0.0 if sum(map(sum, charges)) else None)


@settings(max_examples=80, deadline=None)
@given(task_charges)
def test_a_learner_that_pays_nothing_on_returns_learns_everything(charges: list[list[int]]) -> None:
    reset = _stream(charges)
    learner = [{**r, "charge": r["charge"] if r["exposure_index"] == 0 else 0} for r in reset]
    learned = share_learned(learner, reset, resamples=200)
    if sum(c for row in charges for c in row[1:]):
        assert learned.share_learned.value == pytest.approx(1.0)
        if len(charges) > 1:  # every resample that has a return to learn reads 1 too
            assert learned.share_learned.low == pytest.approx(1.0)
            assert learned.share_learned.high == pytest.approx(1.0)


def test_a_game_test_shows_the_mean_level_score_of_each_side_and_a_grid_test_none() -> None:
    scores = {1: 1.0, 2: 0.25, 3: 0.0}  # learner: the plan matched, twice the plan, unsolved
    learner = [{**r, "level_score": scores[r["seed"]]} for r in TEST_LEARNER]
    again = [{**r, "level_score": 0.5 if r["seed"] == 1 else scores[r["seed"]]} for r in TEST_LEARNER]
    reset = [{**r, "level_score": 0.0} for r in TEST_RESET]
    c = share_saved([learner, again], [reset], test="seen", resamples=100)
    # Instance 1 reads (1 + 0.5) / 2 = 0.75 over the two plays; the mean over three is (0.75 + 0.25 + 0) / 3.
    assert c.learner["level_score"] == pytest.approx(1 / 3)
    assert c.reset["level_score"] == 0.0
    assert (
        c.share_saved.value
        == share_saved([TEST_LEARNER, TEST_LEARNER], [TEST_RESET], test="seen").share_saved.value
    )
    assert "level_score" not in share_saved([TEST_LEARNER], [TEST_RESET], test="seen", resamples=100).learner
    assert phase_table(learner)["seen"]["level_score"] == pytest.approx(1.25 / 3)
    assert "level_score" not in phase_table(TEST_LEARNER)["seen"]


def test_a_game_test_shows_arc_agi_3_s_scorecard_beside_the_level_score_worked_by_hand() -> None:
    """Game A: level 1 (weight 1) in 8 actions against 10, (10/8)^2 capped at 1.15; level 2 (weight 2)
    in 12 against 6, (1/2)^2 = 0.25; A scores (1.15 + 2 * 0.25) / 3 = 0.55, all its levels reached.
    Game B: its one level in 10 actions against 5, 0.25. The scorecard is their mean, 0.4; one level
    of three was read against a human's count."""
    levels = {1: (True, 8, 10, "human"), 2: (True, 12, 6, "plan"), 3: (True, 10, 5, "plan")}
    learner = [
        {
            **r,
            "step": r["seed"],
            "solved": levels[r["seed"]][0],
            "level_actions": levels[r["seed"]][1],
            "baseline_actions": levels[r["seed"]][2],
            "baseline_source": levels[r["seed"]][3],
            "level_score": 0.5,  # not what the scorecard reads
        }
        for r in TEST_LEARNER
    ]
    reset = [{**r, "level_score": 0.0, "level_actions": 3, "baseline_actions": 3} for r in TEST_RESET]
    c = share_saved([learner], [reset], test="seen", resamples=100)
    assert c.learner["scorecard"] == pytest.approx(0.4)
    assert c.learner["human_baselines"] == pytest.approx(1 / 3)
    assert c.reset["human_baselines"] == 0.0  # records written before the source: the plan
    text = format_level_score(c.learner)
    assert text == (
        f"  level score {0.5:.{SHARE_DIGITS}f}, scorecard {0.4:.{SHARE_DIGITS}f} (baseline human action "
        "counts on 33% of the levels, the solver's plan on the rest)"
    )
    assert "scorecard" not in share_saved([TEST_LEARNER], [TEST_RESET], test="seen", resamples=100).learner


def test_a_tiny_learnable_budget_is_said_in_one_sentence() -> None:
    # The reset pays 2 charge units on A's returns: 100 * 2 / (16 * 5) = 2.5 points to learn. The
    # learner pays one unit more on A's second return: (34 - 35) / (34 - 32) = -0.5, a loss of one
    # charge unit on one instance read as half of what there was to learn.
    reset = [
        rec("A", 1, 16),
        rec("A", 2, 2, exposure=1, gap=1, step=1),
        rec("A", 3, 0, exposure=2, gap=1, step=2),
    ]
    reset += [rec("A", 4, 0, exposure=3, gap=1, step=3), rec("B", 5, 16, step=4)]
    learner = [{**r, "charge": r["charge"] + 1} if r["seed"] == 3 else r for r in reset]
    r = share_learned(learner, reset, resamples=200)
    assert r.learnable_budget == pytest.approx(2.5) and r.share_learned.value == pytest.approx(-0.5)
    assert format_learned(r).splitlines()[-1] == (
        "the learnable budget is tiny (2.5 points, under 10.0): each point of U the learner saves or "
        "loses against its reset moves the share learned by 0.40, so read the two U beside it"
    )
    assert "tiny" not in format_learned(share_learned(LEARNER_STREAM, RESET_STREAM, resamples=200))  # 27.5


@given(st.floats(min_value=-5.0, max_value=200.0, allow_nan=False))
def test_the_tiny_budget_note_appears_exactly_under_ten_points(budget: float) -> None:
    note = tiny_budget_note(budget)
    assert (note is not None) == (0 < budget < 10)
    if note is not None:  # one point of U moves the share by 1 / budget, more than 0.1
        assert f"moves the share learned by {1 / budget:.2f}," in note and 1 / budget > 0.1
    assert tiny_budget_note(None) is None
