"""The controls: one remembered bit, a hand-written prior it switches on, and no game knowledge kept."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from continual_arc.core.games import GameAction, GameFeedback, GameObservation, encode_frame
from continual_arc.play.learner import load_learner
from continual_arc_baselines.explorer import DemoSkipControl, PriorControl
from continual_arc_baselines.explorer.controls import hand_prior
from continual_arc_baselines.explorer.notes import GameNotes

needs_engine = pytest.mark.skipif(
    importlib.util.find_spec("arcengine") is None,
    reason="the arc3 track needs Python 3.12 and continual-arc[arc3]",
)

ARROWS = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")


def _observation(game: str, step: int) -> GameObservation:
    grid = np.full((64, 64), 5, dtype=np.uint8)
    grid[10, 10], grid[10, 20] = 9, 14  # a blue square, and a green one
    frame = encode_frame(grid.tolist())
    return GameObservation(game, frame, (frame,), ARROWS, 0, 32, 0, 8, 0, 8, (), step, 0, 0)


def _won(game: str, step: int) -> GameFeedback:
    """The feedback of a win at once (what was played does not matter to the bit)."""
    return GameFeedback((_observation(game, step).frame,), "won", "won", 1, 0, 0, True)


def _one_round(control: PriorControl, game: str, step: int) -> None:
    control.begin_round()
    obs = _observation(game, step)
    action = control.act(obs)
    assert isinstance(action, GameAction)
    control.observe(obs, action, _won(game, step))
    control.end_round()


def test_the_two_priors_are_what_they_say_and_an_unknown_one_is_refused() -> None:
    blue = hand_prior("blue-to-green")
    assert (blue.mover_colour, blue.goal_colour, blue.wins, blue.keys) == (9, 14, 1, {})
    demos = hand_prior("no-demos")
    assert (demos.mover_colour, demos.goal_colour, demos.wins) == (None, None, 1)
    with pytest.raises(ValueError, match="blue-to-green, no-demos"):
        PriorControl(prior="green-to-blue")


@pytest.mark.parametrize("prior", ["blue-to-green", "no-demos"])
def test_one_round_sets_the_bit_its_reset_clears_and_no_game_is_kept(prior: str, tmp_path: Path) -> None:
    control = PriorControl(prior=prior)
    assert control._episode(_observation("a", 0)).prior == GameNotes()  # nothing before a round
    control._open.clear()
    _one_round(control, "a", 1)
    assert control.switched and control.games == {}
    assert control._episode(_observation("b", 2)).prior == hand_prior(prior)  # a game never met
    control.save_state(tmp_path)
    restored = PriorControl(prior=prior)
    restored.load_state(tmp_path)
    assert restored.switched
    control.reset()
    assert not control.switched


def test_its_reset_form_never_switches_the_prior_on() -> None:
    forgetful = PriorControl(keep=False)
    _one_round(forgetful, "a", 1)
    assert not forgetful.switched and forgetful.stateless


def test_the_demo_skipping_control_is_the_no_demos_prior_under_a_name_of_its_own() -> None:
    control = load_learner("continual_arc_baselines.explorer:DemoSkipControl", {})
    assert isinstance(control, DemoSkipControl) and control.prior == "no-demos" and control.keep
    _one_round(control, "a", 1)
    assert control._episode(_observation("b", 2)).prior == GameNotes(wins=1)  # nothing assumed but a win
    assert not DemoSkipControl(keep=False).keep
    prior = load_learner("continual_arc_baselines.explorer:PriorControl", {})
    assert isinstance(prior, PriorControl) and prior.prior == "blue-to-green"


@needs_engine
@pytest.mark.parametrize("control", [PriorControl, DemoSkipControl])
def test_the_controls_pass_check_learner_on_arc3(control: type[PriorControl]) -> None:
    from continual_arc.testing import check_learner

    assert check_learner(control, config="arc3-smoke", users=1) == []
