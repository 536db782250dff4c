"""tilt-gravity: sand stops a rolling ball, in the engine as in the solver, and difficulty 5 needs it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import RIGHT, Level, Move
from continual_arc_games.draw import level_rng
from continual_arc_games.session import Session

SPEC = GAMES["tilt-gravity"]

# tilt-gravity codes: 1 wall, 2 a ball, 3 the goal hole, 4 a pit, 5 sand. A corridor: the ball,
# a floor cell, sand, then a pit or a floor cell, then the hole. By hand: the viewport is 7x3
# cells, scaled by min(64 // 7, 64 // 3) = 9 and centred at offsets (0, 18), so cell (x, 1) covers
# frame columns 9x .. 9x + 8 and rows 27 .. 35.
SAND_THEN_HOLE = Level.make("tilt-gravity", [[1] * 7, [1, 2, 0, 5, 0, 3, 1], [1] * 7])
SAND_THEN_PIT = Level.make("tilt-gravity", [[1] * 7, [1, 2, 0, 5, 4, 3, 1], [1] * 7])


def _ball_cell(frame: np.ndarray) -> int | None:
    """The column (in cells) of the red ball in the corridor, None when it is gone."""
    red = np.argwhere(frame[27:36] == 8)
    return None if red.size == 0 else min(int(x) for x in red[:, 1]) // 9


def test_a_ball_stops_on_sand_and_the_next_tilt_rolls_it_off() -> None:
    session = Session(SPEC, SAND_THEN_HOLE)
    assert _ball_cell(session.frame) == 1
    session.step(Move(RIGHT))
    assert _ball_cell(session.frame) == 3 and not session.over  # without the sand it would be home
    assert len(session.frames) == 2  # a frame per cell rolled
    session.step(Move(RIGHT))
    assert session.won


def test_sand_before_a_pit_only_delays_the_fall() -> None:
    session = Session(SPEC, SAND_THEN_PIT)
    session.step(Move(RIGHT))
    assert _ball_cell(session.frame) == 3 and not session.over
    session.step(Move(RIGHT))
    assert session.lost
    assert SPEC.solve(SAND_THEN_PIT, SPEC.budget) is None
    assert SPEC.solve(SAND_THEN_HOLE, SPEC.budget) == (Move(RIGHT), Move(RIGHT))


def _rests_on_sand(level: Level, plan: tuple[Move, ...]) -> bool:
    """Whether, played in the engine, some move of the plan leaves a ball resting on a sand cell."""
    sand = set(level.cells(5))
    session = Session(SPEC, level)
    width, height = level.width, level.height + 1  # the fuel bar's row below the room
    scale = min(64 // width, 64 // height)
    left, top = (64 - scale * width) // 2, (64 - scale * height) // 2
    for move in plan:
        session.step(move)
        red = np.argwhere(session.frame == 8)
        cells = {((int(x) - left) // scale, (int(y) - top) // scale) for y, x in red}
        if cells & sand:
            return True
    return False


@pytest.mark.parametrize("seed", range(6))
def test_difficulty_five_holds_sand_that_its_fewest_tilts_stop_a_ball_on(seed: int) -> None:
    level = SPEC.generate(level_rng(SPEC.id, 5, ("sand", seed), 0), 5)
    assert len(level.cells(5)) == 4
    plan = SPEC.solve(level, SPEC.budget)
    assert plan is not None and _rests_on_sand(level, plan)
    lower = SPEC.generate(level_rng(SPEC.id, 4, ("sand", seed), 0), 4)
    assert not lower.cells(5)  # no sand before difficulty 5
