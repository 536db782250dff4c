"""ARC-AGI-3's level score, checked against values worked out by hand."""

from __future__ import annotations

import pytest

from continual_arc.core.level_score import level_actions, level_fields, level_score


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
