"""push-blocks: ice slides a pushed block on, a cell a frame, in the engine as in the solver."""

from __future__ import annotations

import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import RIGHT, Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["push-blocks"]

# Codes: 1 wall, 2 the player, 3 a block, 4 a target, 7 ice. A corridor: the player, the block, two
# cells of ice, then the target (HOME) or a floor cell and the target (SHORT).
HOME = Level.make("push-blocks", [[1] * 8, [1, 2, 3, 7, 7, 4, 0, 1], [1] * 8])
SHORT = Level.make("push-blocks", [[1] * 8, [1, 2, 3, 7, 7, 0, 4, 1], [1] * 8])


def test_a_block_pushed_onto_ice_slides_off_its_far_end_a_cell_a_frame() -> None:
    session = Session(SPEC, HOME)
    session.step(Move(RIGHT))
    assert session.won  # one push: onto the ice, across it, and onto the target beyond
    assert len(session.frames) == 3  # a frame for the push and one for each cell slid
    assert SPEC.solve(HOME, SPEC.budget) == (Move(RIGHT),)


def test_the_player_walks_on_ice_and_a_block_off_ice_moves_one_cell() -> None:
    session = Session(SPEC, SHORT)
    session.step(Move(RIGHT))
    assert not session.over  # the block slid to the floor cell before the target
    for _ in range(3):  # the player walks across the ice, then pushes the block one cell
        assert not session.over
        session.step(Move(RIGHT))
    assert session.won and len(session.frames) == 1
    assert SPEC.solve(SHORT, SPEC.budget) == (Move(RIGHT),) * 4


@pytest.mark.parametrize("seed", range(4))
def test_difficulty_three_has_ice_that_the_fewest_moves_slide_a_block_across(seed: int) -> None:
    level, plan = draw_level(SPEC, ("ice", seed), 3)
    assert len(level.cells(7)) == 5
    session = Session(SPEC, level)
    animated = 0
    for move in plan:
        session.step(move)
        animated += len(session.frames) > 1  # only a slide takes more than one frame
    assert session.won and animated >= 1
    lower, _ = draw_level(SPEC, ("ice", seed), 2)
    assert not lower.cells(7)
