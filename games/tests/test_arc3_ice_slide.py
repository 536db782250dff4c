"""ice-slide: hand-made rinks worked out by hand, each difficulty's element, a player trying every move."""

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

# Codes: 0 ice, 1 wall, 2 start (on snow), 3 exit, 4 snow, 5 hole, 6 cracked rock, 7 crate.
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
            if not session.lost and rest() not in seen:  # a fall into a hole is a dead end
                seen.add(rest())
                queue.append((*tried, action))
    pytest.fail("every resting place was tried without a win")


def test_a_slide_onto_a_hole_loses_and_a_step_around_it_does_not() -> None:
    # The start, a hole two cells right; the exit below the start's row, reached by going down.
    rink = Level.make("ice-slide", [[1] * 6, [1, 2, 0, 5, 0, 1], [1, 3, 1, 1, 1, 1], [1] * 6])
    session = Session(SPEC, rink)
    session.step(RIGHT)  # one cell of ice, then the hole
    assert session.lost and _where(session.frame) == (3, 1)
    session.reset()
    session.step(DOWN)
    assert session.won
    assert SPEC.solve(rink, SPEC.budget) == (DOWN,)


def _colour(frame: np.ndarray, level: Level, cx: int, cy: int) -> int:
    """The one colour of cell (cx, cy) of a rink without fuel, by the camera's arithmetic by hand."""
    scale = min(64 // level.width, 64 // level.height)
    x0, y0 = (64 - level.width * scale) // 2 + scale * cx, (64 - level.height * scale) // 2 + scale * cy
    box = frame[y0 : y0 + scale, x0 : x0 + scale]
    assert (box == box[0, 0]).all()
    return int(box[0, 0])


def test_a_cracked_rock_stops_the_first_slide_then_is_ice() -> None:
    # Sliding right stops against the cracked rock at (4, 1), which shatters; the next right slides
    # on through its cell to the exit at (6, 1). A fixed rock in its place would leave no way at all.
    rink = Level.make("ice-slide", [[1] * 8, [1, 2, 0, 0, 6, 0, 3, 1], [1] * 8])
    session = Session(SPEC, rink)
    assert _colour(session.frame, rink, 4, 1) == 2  # light grey: cracked
    session.step(RIGHT)
    assert _colour(session.frame, rink, 3, 1) == 9 and _colour(session.frame, rink, 4, 1) == 10
    assert not session.over
    session.step(RIGHT)
    assert session.won
    assert SPEC.solve(rink, SPEC.budget) == (RIGHT, RIGHT)
    fixed = Level.make("ice-slide", [[1] * 8, [1, 2, 0, 0, 1, 0, 3, 1], [1] * 8])
    assert SPEC.solve(fixed, SPEC.budget) is None


def test_a_crate_slides_in_the_players_place_and_fills_the_first_hole_it_meets() -> None:
    # Row 1: start, crate, ice, hole, ice, exit. Right: the crate slides onto the hole and fills it
    # (the player stays on the snow); right again: the player slides over the filled hole to the exit.
    rink = Level.make("ice-slide", [[1] * 8, [1, 2, 7, 0, 5, 0, 3, 1], [1] * 8])
    session = Session(SPEC, rink)
    assert _colour(session.frame, rink, 4, 1) == 5  # black: the hole
    session.step(RIGHT)
    assert len(session.frames) == 2  # the crate's two cells, a frame each
    assert _colour(session.frames[0], rink, 3, 1) == 12  # orange: the crate, a cell on
    assert _colour(session.frame, rink, 1, 1) == 9 and _colour(session.frame, rink, 4, 1) == 10
    assert not session.over
    session.step(RIGHT)
    assert session.won
    assert SPEC.solve(rink, SPEC.budget) == (RIGHT, RIGHT)


def test_a_crate_stops_on_snow_and_against_the_exit() -> None:
    # Row 1: start, crate, ice, snow, ice, ice, exit.
    rink = Level.make("ice-slide", [[1] * 9, [1, 2, 7, 0, 4, 0, 0, 3, 1], [1] * 9])
    session = Session(SPEC, rink)
    session.step(RIGHT)  # the crate slides onto the snow and stops there
    assert [_colour(session.frame, rink, x, 1) for x in range(1, 5)] == [9, 10, 10, 12]
    session.step(RIGHT)  # the player slides up to the crate and sends it on, up to the exit
    assert [_colour(session.frame, rink, x, 1) for x in range(1, 8)] == [0, 10, 9, 0, 10, 12, 14]
    session.step(RIGHT)  # onto the snow
    session.step(RIGHT)  # one cell of ice; the crate ahead cannot move: the player stops
    assert [_colour(session.frame, rink, x, 1) for x in range(4, 8)] == [0, 9, 12, 14]
    assert not session.over
    assert SPEC.solve(rink, SPEC.budget) is None  # the crate always ends between player and exit


# The element each difficulty adds, by the cell code that shows it.
ELEMENTS = {1: 5, 2: 6, 3: 7}


@pytest.mark.parametrize("difficulty", sorted(ELEMENTS))
def test_each_difficulty_draws_its_element_and_its_plans_win(difficulty: int) -> None:
    for seed in range(8):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)  # the draw replays the plan
        codes = {v for row in level.grid for v in row}
        assert ELEMENTS[difficulty] in codes
        assert all(ELEMENTS[d] not in codes for d in ELEMENTS if d > difficulty)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if difficulty >= 2:  # the element is needed: fixed in place, the level is longer or unsolved
            fixed = [[1 if v in (6, 7) else v for v in row] for row in level.grid]
            easier = SPEC.solve(Level.make("ice-slide", fixed), SPEC.budget)
            assert easier is None or len(easier) > len(plan)
