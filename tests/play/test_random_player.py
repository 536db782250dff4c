"""RandomPlayer's two floors: clicks on uniform cells, or on the centres of uniform patches."""

from __future__ import annotations

import pytest

from continual_arc.core.games import GameAction, GameObservation, encode_frame
from continual_arc.play.toy_learners import RandomPlayer


def _observation(step: int, actions: tuple[str, ...] = ("ACTION6",)) -> GameObservation:
    rows = [[5] * 64 for _ in range(64)]
    for x in range(20, 23):
        rows[40][x] = 9  # a bar of three blue cells, centred on (21, 40)
    rows[3][60] = 14  # one green cell
    frame = encode_frame(rows)
    return GameObservation("game", frame, (frame,), actions, 0, 32, 0, 8, 0, 8, (), step, 0, 0)


def test_the_patch_player_clicks_only_the_centres_of_the_frame_s_patches() -> None:
    player = RandomPlayer(seed=3, mode="patch")
    clicks = set()
    for step in range(60):
        action = player.act(_observation(step))
        assert isinstance(action, GameAction) and action.action == "ACTION6"
        clicks.add((action.x, action.y))
    # Three patches: the background (centred on its cell nearest the frame's middle), the bar, the dot.
    assert {(21, 40), (60, 3)} < clicks and len(clicks) == 3


def test_the_pixel_player_clicks_anywhere_and_both_draw_the_other_actions_uniformly() -> None:
    clicks = {(a.x, a.y) for a in (RandomPlayer(seed=3).act(_observation(step)) for step in range(60))}
    assert len(clicks) > 50  # 60 draws among 4096 cells
    arrows = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")
    names = {RandomPlayer(mode="patch").act(_observation(step, arrows)).action for step in range(40)}  # type: ignore[union-attr]
    assert names == set(arrows)


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="pixel, patch"):
        RandomPlayer(mode="blob")
