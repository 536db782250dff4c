"""conveyor: a hand-made room whose frames are worked out by hand, each difficulty's element, the
solver against an explorer of frames, and a human-style player that reads the arrows off the screen
and plans a walk."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level, level_rng
from continual_arc_games.session import Session
from frame_reading import STEPS, Cell, Grid, explore, keys_to

SPEC = GAMES["conveyor"]
UP, DOWN, RIGHT, WAIT = Move("ACTION1"), Move("ACTION2"), Move("ACTION4"), Move("ACTION5")

# Codes: 1 wall, 2 start, 3 exit, 5 a belt running east, 7 a belt running west.
ROOM = Level.make("conveyor", [[1] * 6, [1, 2, 5, 5, 3, 1], [1, 0, 7, 0, 0, 1], [1] * 6])

# By hand: 64 // 6 = 10 pixels a cell, made odd: 9. The viewport is 54x36 pixels at scale 1, centred
# at offsets (5, 14): cell (cx, cy) covers columns 5 + 9 cx .. 13 + 9 cx and rows 14 + 9 cy .. 22 + 9
# cy. An arrow pointing north fills row 2 + j from column 4 - j to 4 + j (j = 0..4); turned to point
# east, column 2 + j holds rows j .. 8 - j, so its tip is the single pixel (row 4, column 6).


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[14 + 9 * cy : 23 + 9 * cy, 5 + 9 * cx : 14 + 9 * cx]


def _player(frame: np.ndarray) -> Cell:
    ys, xs = np.nonzero(frame == 9)
    return (int(xs.min()) - 5) // 9, (int(ys.min()) - 14) // 9


def test_first_frame_shows_belts_as_arrows() -> None:
    frame = Session(SPEC, ROOM).frame
    assert (frame[:14] == 4).all() and (frame[:, :5] == 4).all()  # the letterbox
    assert (_cell(frame, 0, 0) == 2).all() and (_cell(frame, 1, 1) == 9).all()  # a wall, the player
    assert (_cell(frame, 4, 1) == 14).all() and (_cell(frame, 3, 2) == 5).all()  # the exit, floor
    east = _cell(frame, 2, 1)
    for j in range(5):
        assert (east[j : 9 - j, 2 + j] == 12).all() and east[j - 1 if j else 0, 2 + j] in (3, 12)
    assert east[4, 7] == 3 and east[0, 3] == 3 and east[8, 8] == 3
    west = _cell(frame, 2, 2)
    assert west[4, 2] == 12 and west[3, 2] == 3 and (west[:, 6] == 12).all()  # tip left, base right


def test_a_belt_carries_the_player_as_a_second_frame() -> None:
    session = Session(SPEC, ROOM)
    session.step(RIGHT)  # onto the east belt, then carried one more cell east
    assert [_player(f) for f in session.frames] == [(2, 1), (3, 1)]
    session.step(WAIT)  # standing still on a belt: carried onto the exit, which wins
    assert [_player(f) for f in session.frames] == [(3, 1), (4, 1)] and session.won
    session.reset()
    session.step(DOWN)
    assert [_player(f) for f in session.frames] == [(1, 2)]
    before = session.frame.copy()
    session.step(RIGHT)  # onto the west belt, and carried straight back
    assert [_player(f) for f in session.frames] == [(2, 2), (1, 2)]
    assert np.array_equal(session.frame, before)
    session.step(UP)
    session.step(UP)  # into the wall: stays, and no belt under it, so one frame
    assert len(session.frames) == 1 and _player(session.frame) == (1, 1)


def test_solver_plans_are_as_short_as_the_explorer_finds() -> None:
    for seed in range(2):
        level = SPEC.generate(level_rng(SPEC.id, 0, ("explore", seed), 0), 0)
        plan = SPEC.solve(level, SPEC.budget)
        assert plan is not None and len(plan) == explore(Session(SPEC, level))


def _arrow(block: np.ndarray) -> tuple[int, int] | None:
    """Which way an orange arrowhead points: away from the widest side of its bounding box."""
    ys, xs = np.nonzero(block == 12)
    if len(xs) == 0:
        return None
    edges = {(0, 1): ys == ys.min(), (0, -1): ys == ys.max(), (1, 0): xs == xs.min(), (-1, 0): xs == xs.max()}
    return max(edges, key=lambda way: int(edges[way].sum()))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_conveyor_by_reading_the_arrows_and_planning_a_walk(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    frame = session.frame
    grid = Grid(frame, 9)  # the blue player fills one cell
    walls = set(grid.with_colour(frame, 2))
    belts = {c: way for c in grid.cells() if (way := _arrow(grid.block(frame, c))) is not None}
    pits = set(grid.with_colour(frame, 13))  # maroon: a step or a carry into one loses
    start, goal = grid.with_colour(frame, 9)[0], grid.with_colour(frame, 14)[0]

    def after(cell: Cell, step: tuple[int, int]) -> Cell | None:
        ahead = (cell[0] + step[0], cell[1] + step[1])
        cell = cell if ahead in walls else ahead
        if cell == goal or cell not in belts or cell in pits:
            return None if cell in pits else cell
        carried = (cell[0] + belts[cell][0], cell[1] + belts[cell][1])
        cell = cell if carried in walls else carried
        return None if cell in pits else cell

    keys = {**STEPS, "ACTION5": (0, 0)}
    came: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while goal not in came:  # plan the walk in the head, belts and all, breadth first
        cell = queue.popleft()
        for key, step in keys.items():
            nxt = after(cell, step)
            if nxt is not None and nxt not in came:
                came[nxt] = (cell, key)
                queue.append(nxt)
    walk = keys_to(came, goal)
    for key in walk:
        session.step(Move(key))
    assert session.won and len(walk) == len(plan)


# Codes beyond the first room's: 8 a pit, 9 the button, 10 + s a spinning belt (side s at the start).


def test_a_carry_into_a_pit_loses() -> None:
    room = Level.make("conveyor", [[1] * 6, [1, 2, 5, 8, 3, 1], [1, 0, 0, 0, 0, 1], [1] * 6])
    session = Session(SPEC, room)
    assert (_cell(session.frame, 3, 1) == 13).all()  # maroon: the pit
    session.step(RIGHT)  # onto the east belt, then carried into the pit
    assert session.lost
    assert SPEC.solve(room, SPEC.budget) == (DOWN, RIGHT, RIGHT, RIGHT, UP)  # round below it


def test_the_button_turns_every_belt_round() -> None:
    # Two belts run west between the button and the exit: pressed, they carry the player east.
    room = Level.make("conveyor", [[1] * 7, [1, 2, 9, 7, 7, 3, 1], [1] * 7])
    session = Session(SPEC, room)
    grid = Grid(session.frame, 9)
    belts = [(c, _arrow(grid.block(session.frame, c))) for c in grid.cells()]
    assert [way for _, way in belts if way] == [(-1, 0), (-1, 0)]
    session.step(RIGHT)  # onto the button: no carry, every arrow turned
    assert len(session.frames) == 1
    assert [w for c, _ in belts if (w := _arrow(grid.block(session.frame, c)))] == [(1, 0), (1, 0)]
    session.step(RIGHT)  # onto the first belt, carried east onto the second
    assert len(session.frames) == 2
    session.step(RIGHT)
    assert session.won
    plan = SPEC.solve(room, SPEC.budget)  # the third move may be any the belt then carries on
    assert plan is not None and len(plan) == 3 and plan[:2] == (RIGHT, RIGHT)
    bare = Level.make("conveyor", [[1] * 7, [1, 2, 0, 7, 7, 3, 1], [1] * 7])
    assert SPEC.solve(bare, SPEC.budget) is None  # the belts always carry the player back


def test_a_spinning_belt_turns_a_quarter_clockwise_after_every_action() -> None:
    # A spinning belt at (2, 2) points north at the start; the exit is east of it.
    rows = [[1] * 5, [1, 0, 0, 0, 1], [1, 2, 10, 3, 1], [1, 0, 0, 0, 1], [1] * 5]
    room = Level.make("conveyor", rows)
    session = Session(SPEC, room)
    grid = Grid(session.frame, 9)
    (spinner,) = grid.with_colour(session.frame, 10)  # light blue: the spinning belt
    ways = [_arrow(grid.block(session.frame, spinner))]
    for _ in range(4):
        session.step(WAIT)
        ways.append(_arrow(grid.block(session.frame, spinner)))
    assert ways == [(0, -1), (1, 0), (0, 1), (-1, 0), (0, -1)]  # north, east, south, west, north
    session.reset()
    session.step(WAIT)  # now it points east: boarded, it carries the player onto the exit
    session.step(RIGHT)
    assert session.won
    plan = SPEC.solve(room, SPEC.budget)
    assert plan is not None and len(plan) == 2 and plan[-1] == RIGHT


# The element each difficulty adds, by the cell codes that show it.
ELEMENTS = {1: {8}, 2: {9}, 3: {10, 11, 12, 13}}


@pytest.mark.parametrize("difficulty", sorted(ELEMENTS))
def test_each_difficulty_draws_its_element_and_its_plans_win(difficulty: int) -> None:
    for seed in range(6):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)
        codes = {v for row in level.grid for v in row}
        assert ELEMENTS[difficulty] & codes
        assert not any(ELEMENTS[d] & codes for d in ELEMENTS if d > difficulty)
        session = Session(SPEC, level)
        grid = Grid(session.frame, 9)
        spinners = set(grid.with_colour(session.frame, 10))
        rode = False
        for move in plan:
            session.step(move)
            if len(session.frames) == 2:  # a carry: from the cell the first frame shows
                rode |= grid.with_colour(session.frames[0], 9)[0] in spinners
        assert session.won
        if difficulty == 2:  # the button is needed: as plain floor the level is longer or unsolved
            bare = [[0 if v == 9 else v for v in row] for row in level.grid]
            easier = SPEC.solve(Level.make("conveyor", bare), SPEC.budget)
            assert easier is None or len(easier) > len(plan)
        assert rode == (difficulty == 3)
