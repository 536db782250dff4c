"""ice-slide: a hand-made rink's frames worked out by hand, and a player who tries every move."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arc3_frame_reading import STEPS, Cell, lattice, pixels
from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["ice-slide"]
UP, DOWN, LEFT, RIGHT = (Move(a) for a in STEPS)

# Codes: 0 ice, 1 wall, 2 start (on snow), 3 exit, 4 snow.
RINK = Level.make("ice-slide", [[1] * 6, [1, 2, 0, 4, 0, 1], [1, 0, 1, 0, 3, 1], [1] * 6])

# By hand: one pixel per cell, a 6x4 viewport, scaled by min(64 // 6, 64 // 4) = 10 and centred at
# offsets (2, 12): cell (cx, cy) is frame columns 2 + 10 cx .. 11 + 10 cx, rows 12 + 10 cy .. 21 + 10 cy.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[12 + 10 * cy : 22 + 10 * cy, 2 + 10 * cx : 12 + 10 * cx]


def _where(frame: np.ndarray) -> Cell:
    x, y = pixels(frame, 9)[0]
    return (x - 2) // 10, (y - 12) // 10


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, RINK).frame
    assert (frame[:12] == 4).all() and (frame[:, :2] == 4).all() and (frame[52:] == 4).all()
    assert (_cell(frame, 0, 0) == 3).all() and (_cell(frame, 2, 2) == 3).all()  # walls and the rock
    assert (_cell(frame, 1, 1) == 9).all()  # the player
    assert (_cell(frame, 2, 1) == 10).all() and (_cell(frame, 1, 2) == 10).all()  # ice
    assert (_cell(frame, 3, 1) == 0).all()  # snow
    assert (_cell(frame, 4, 2) == 14).all()  # the exit


def test_a_slide_is_one_frame_per_cell_and_snow_stops_it() -> None:
    session = Session(SPEC, RINK)
    session.step(RIGHT)  # one cell of ice, then onto the snow: two frames, resting on the snow
    assert [_where(frame) for frame in session.frames] == [(2, 1), (3, 1)]
    session.step(RIGHT)  # from snow onto ice, which stops at the wall at once: one frame
    assert [_where(frame) for frame in session.frames] == [(4, 1)]
    assert (_cell(session.frame, 3, 1) == 0).all()  # the snow shows again
    before = session.frame.copy()
    session.step(UP)  # a wall straight ahead: nothing moves
    assert np.array_equal(session.frame, before) and len(session.frames) == 1
    session.step(DOWN)
    assert session.won


def test_the_exit_stops_a_slide_that_crosses_it() -> None:
    crossing = Level.make("ice-slide", [[1] * 6, [1, 2, 0, 3, 0, 1], [1] * 6])
    session = Session(SPEC, crossing)
    session.step(RIGHT)
    assert session.won and len(session.frames) == 2


@pytest.mark.parametrize("seed", [0, 1])
def test_ice_slide_by_trying_every_move_from_every_resting_place(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    size, _ = lattice(session.frame)

    def rest() -> Cell:
        x, y = pixels(session.frame, 9)[0]
        return x // size, y // size

    seen = {rest()}
    queue: deque[tuple[str, ...]] = deque([()])
    while queue:
        tried = queue.popleft()
        for action in session.actions:
            session.reset()
            for key in (*tried, action):
                session.step(Move(key))
            if session.won:
                # Trying the shortest sequences first, the player needs exactly as many as the solver.
                assert len(tried) + 1 == len(plan)
                return
            if rest() not in seen:
                seen.add(rest())
                queue.append((*tried, action))
    pytest.fail("every resting place was tried without a win")
