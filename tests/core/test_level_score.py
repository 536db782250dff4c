"""ARC-AGI-3's level score, checked against values worked out by hand."""

from __future__ import annotations

import pytest

from continual_arc.core.level_score import (
    baseline_note,
    game_scorecard,
    human_share,
    level_actions,
    level_fields,
    level_score,
    scorecard,
    scorecard_level,
)


def test_a_solved_level_scores_the_squared_ratio_of_baseline_to_actions() -> None:
    # 7 / 14 = 1/2, squared 1/4; 6 / 9 = 2/3, squared 4/9.
    assert level_score(True, 14, 7) == 0.25
    assert level_score(True, 9, 6) == pytest.approx(4 / 9)


def test_matching_or_beating_the_baseline_scores_one_and_an_unsolved_level_zero() -> None:
    assert level_score(True, 4, 4) == 1.0
    assert level_score(True, 2, 3) == 1.0  # (3/2)^2 = 2.25, capped at 1
    assert level_score(False, 4, 4) == 0.0
    assert level_score(False, 0, 5) == 0.0


def test_a_baseline_must_be_positive_and_a_win_takes_an_action() -> None:
    with pytest.raises(ValueError, match="baseline"):
        level_score(True, 3, 0)
    with pytest.raises(ValueError, match="at least one action"):
        level_score(True, 0, 3)


def test_every_game_action_counts_but_a_free_reset_and_demonstrations_do_not() -> None:
    entries = [
        {"action": "RESET"},  # free: at an attempt's start, it changed nothing
        {"action": "ACTION1"},
        {"action": "ACTION6", "x": 3, "y": 4},
        {"action": "RESET", "ended": "reset"},  # ended the attempt: counted
        {"action": "request_demos", "refused": False},
        {"action": "ACTION4", "ended": "lost"},
        {"action": "ACTION2", "ended": "won"},
    ]
    assert level_actions(entries) == 5
    # 5 actions against a plan of 2: (2/5)^2 = 0.16.
    fields = level_fields(entries, True, 2)
    assert (fields["baseline_actions"], fields["level_actions"]) == (2, 5)
    assert fields["level_score"] == pytest.approx(0.16)


def test_the_scorecard_of_a_hand_worked_game_follows_arc_prize_s_rule() -> None:
    """Four levels, worked out by hand as ARC Prize's ``EnvironmentScoreCalculator`` scores them.

    Level 1 (weight 1): baseline 10 in 8 actions, (10/8)^2 = 1.5625, capped at 1.15.
    Level 2 (weight 2): baseline 6 in 12 actions, (1/2)^2 = 0.25.
    Level 3 (weight 3): unsolved, 0.
    Level 4 (weight 4): baseline 9 in 9 actions, 1.
    Weighted mean: (1.15 + 0.5 + 0 + 4) / 10 = 0.565. Levels above 0 weigh 1 + 2 + 4 = 7 of 10,
    so the cap is 0.7, and the game scores 0.565.
    """
    levels = [(True, 8, 10), (True, 12, 6), (False, 30, 7), (True, 9, 9)]
    assert game_scorecard(levels) == pytest.approx(0.565)
    assert [scorecard_level(*level) for level in levels] == pytest.approx([1.15, 0.25, 0.0, 1.0])


def test_the_scorecard_caps_a_game_at_its_weighted_share_of_levels_reached() -> None:
    # Level 1 at 1.15, level 2 unsolved: the mean (1.15 + 0) / 3 = 0.3833 is above the share
    # reached, 1/3, which caps it.
    assert game_scorecard([(True, 1, 5), (False, 4, 2)]) == pytest.approx(1 / 3)
    assert game_scorecard([]) == 0.0
    assert scorecard_level(True, 0, 4) == 0.0  # a win that claims no action scores nothing


def test_a_play_s_scorecard_is_the_mean_over_its_games_each_in_the_order_played() -> None:
    def record(task: str, step: int, solved: bool, actions: int, baseline: int) -> dict[str, object]:
        return {
            "task_id": task,
            "user": 0,
            "step": step,
            "solved": solved,
            "level_actions": actions,
            "baseline_actions": baseline,
            "level_score": 0.0,
        }

    # Game a, in step order: unsolved, then a level at baseline (1): (0 + 2) / 3 = 2/3, cap 2/3.
    # Game b: one level, (4/8)^2 = 0.25. The mean: (2/3 + 0.25) / 2.
    records = [record("a", 5, True, 3, 3), record("b", 2, True, 8, 4), record("a", 1, False, 9, 3)]
    assert scorecard(records) == pytest.approx((2 / 3 + 0.25) / 2)
    assert scorecard([{"task_id": "t", "step": 0}]) is None  # a grid run has no scorecard


def test_a_record_says_whether_its_baseline_is_a_human_s_or_the_plan_s() -> None:
    entries = [{"action": "ACTION1"}, {"action": "ACTION2", "ended": "won"}]
    assert level_fields(entries, True, 2)["baseline_source"] == "plan"
    assert level_fields(entries, True, 3, "human")["baseline_source"] == "human"
    with pytest.raises(ValueError, match="human, plan"):
        level_fields(entries, True, 2, "guess")


def test_the_share_of_human_baselines_and_what_the_output_says_of_it() -> None:
    plan = {"level_score": 0.5, "baseline_source": "plan"}
    old = {"level_score": 0.5}  # written before the source was recorded: the plan
    human_level = {"level_score": 1.0, "baseline_source": "human"}
    grid = {"level_score": None}
    assert human_share([plan, old, human_level, grid]) == pytest.approx(1 / 3)
    assert human_share([grid]) is None
    assert baseline_note(None) == baseline_note(0.0) == "the solver's plan"
    assert baseline_note(1.0) == "human action counts"
    assert baseline_note(1 / 3) == "human action counts on 33% of the levels, the solver's plan on the rest"
