"""colour-gates: a hand-made corridor whose frames are worked out by hand, the solver against an
explorer of frames on small rooms, and a human-style player that reads pads and gates off the screen."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session
from frame_reading import STEPS, Cell, Grid, explore, keys_to

SPEC = GAMES["colour-gates"]
UP, DOWN, LEFT, RIGHT = (Move(f"ACTION{i}") for i in range(1, 5))

# Codes: 1 wall, 2 start, 3 exit, 4 a red pad, 5 a yellow pad, 8 a red gate.
CORRIDOR = Level.make("colour-gates", [[1] * 7, [1, 2, 0, 8, 0, 3, 1], [1, 4, 5, 1, 1, 1, 1], [1] * 7])

# By hand: 64 // 7 = 9 pixels a cell (odd already). The viewport is 63x36 pixels at scale 1, centred
# at offsets (0, 14): cell (cx, cy) covers columns 9 cx .. 9 cx + 8 and rows 14 + 9 cy .. 22 + 9 cy.
# A pad is the 3x3 square of pixels 3-5 in its cell; a gate has bars in its even pixel columns.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[14 + 9 * cy : 23 + 9 * cy, 9 * cx : 9 * cx + 9]


def test_first_frame_shows_pads_as_dots_and_gates_as_bars() -> None:
    frame = Session(SPEC, CORRIDOR).frame
    assert (frame[:14] == 4).all() and (frame[:, 63] == 4).all()  # the letterbox
    assert (_cell(frame, 1, 1) == 0).all() and (_cell(frame, 5, 1) == 14).all()  # player, exit
    red = _cell(frame, 1, 2)
    assert (red[3:6, 3:6] == 8).all() and (red == 8).sum() == 9 and ((red == 8) | (red == 5)).all()
    assert (_cell(frame, 2, 2)[3:6, 3:6] == 11).all()  # the yellow pad
    gate = _cell(frame, 3, 1)
    assert (gate[:, ::2] == 8).all() and (gate[:, 1::2] == 5).all()


def test_a_gate_admits_only_a_player_of_its_colour() -> None:
    session = Session(SPEC, CORRIDOR)
    session.step(RIGHT)
    before = session.frame.copy()
    session.step(RIGHT)  # white: the red gate is a wall
    assert np.array_equal(session.frame, before)
    session.step(DOWN)  # onto the yellow pad: painted yellow, the pad hidden underneath
    assert (_cell(session.frame, 2, 2) == 11).all()
    session.step(UP)
    session.step(RIGHT)  # yellow: still a wall
    assert (_cell(session.frame, 2, 1) == 11).all() and (_cell(session.frame, 3, 1)[:, 1] == 5).all()
    for move in (LEFT, DOWN, UP, RIGHT, RIGHT):  # fetch red, then through the gate
        session.step(move)
    assert (_cell(session.frame, 3, 1) == 8).all() and (_cell(session.frame, 1, 2)[4, 4] == 8)
    session.step(RIGHT)
    session.step(RIGHT)
    assert session.won
    assert len(SPEC.solve(CORRIDOR, SPEC.budget) or ()) == 6


def test_solver_plans_are_as_short_as_the_explorer_finds_in_small_rooms() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 3:
        grid = [[1] * 6] + [[1, 0, 0, 0, 0, 1] for _ in range(4)] + [[1] * 6]
        cells = [(x, y) for y in range(1, 5) for x in range(1, 5)]
        for (x, y), code in zip(rng.sample(cells, 8), [2, 3, 4, 5, 8, 9, 1, 1], strict=True):
            grid[y][x] = code
        level = Level.make("colour-gates", grid)
        plan = SPEC.solve(level, SPEC.budget)
        if plan is None or len(plan) < 4:
            continue
        assert len(plan) == explore(Session(SPEC, level)), level.to_json()
        checked += 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_colour_gates_by_reading_pads_and_gates_and_planning_the_errands(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    frame = session.frame
    grid = Grid(frame, 0)  # the white player fills one cell
    walls, pads, gates = set(grid.with_colour(frame, 2)), {}, {}
    for cell in grid.cells():
        block = grid.block(frame, cell)
        mid = grid.size // 2
        if block[0, 0] == block[0, 2] != 5 and block[0, 1] == 5:
            gates[cell] = int(block[0, 0])  # barred
        elif block[0, 0] == 5 and block[mid, mid] != 5:
            pads[cell] = int(block[mid, mid])  # a dot
    start, goal = grid.with_colour(frame, 0)[0], grid.with_colour(frame, 14)[0]
    came: dict[tuple[Cell, int], tuple[tuple[Cell, int], str] | None] = {(start, 0): None}
    queue = deque([(start, 0)])
    while not any(cell == goal for cell, _ in came):  # breadth first over (cell, colour worn)
        cell, colour = queue.popleft()
        for key, (dx, dy) in STEPS.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in walls or gates.get(nxt, colour) != colour:
                continue
            state = (nxt, pads.get(nxt, colour))
            if state not in came:
                came[state] = ((cell, colour), key)
                queue.append(state)
    keys = keys_to(came, next(state for state in came if state[0] == goal))
    for key in keys:
        session.step(Move(key))
    assert session.won and len(keys) == len(plan)


# Codes: 12 a washing pad, 13 a white gate, 14 a yellow mixing pad, 11 an orange gate.
WASHING = Level.make("colour-gates", [[1] * 8, [1, 2, 0, 8, 0, 13, 3, 1], [1, 4, 1, 1, 12, 1, 1, 1], [1] * 8])
MIXING = Level.make("colour-gates", [[1] * 6, [1, 2, 0, 11, 3, 1], [1, 4, 14, 1, 1, 1], [1] * 6])


def test_a_white_gate_admits_only_a_player_the_white_pad_has_washed() -> None:
    session = Session(SPEC, WASHING)
    for move in (DOWN, UP, RIGHT, RIGHT, RIGHT):  # red, through the red gate, to the white gate
        session.step(move)
    before = session.frame.copy()
    session.step(RIGHT)  # red: the white gate is a wall
    assert np.array_equal(session.frame, before)
    for move in (DOWN, UP, RIGHT, RIGHT):  # washed white, then through, onto the exit
        session.step(move)
    assert session.won
    # By hand: down, up, right, right, right, down, up, right, right.
    assert len(SPEC.solve(WASHING, SPEC.budget) or ()) == 9


def test_the_mixing_pad_turns_a_red_player_orange_and_any_other_yellow() -> None:
    session = Session(SPEC, MIXING)
    first = session.frame.copy()
    for move in (RIGHT, DOWN):  # white onto the mixing pad: yellow, never orange
        session.step(move)
    assert (session.frame == 11).sum() > (first == 11).sum()
    assert (session.frame == 12).sum() == (first == 12).sum()
    session.step(UP)
    before = session.frame.copy()
    session.step(RIGHT)  # yellow: the orange gate is a wall
    assert np.array_equal(session.frame, before)
    for move in (LEFT, DOWN, RIGHT):  # red, then mixed orange
        session.step(move)
    oranges = int((session.frame == 12).sum())
    assert oranges > int((before == 12).sum())  # the player is orange now, beside the gate's bars
    for move in (UP, RIGHT, RIGHT):
        session.step(move)
    assert session.won
    assert SPEC.solve(MIXING, SPEC.budget) == (DOWN, RIGHT, UP, RIGHT, RIGHT)


def _without(level: Level, code: int, instead: int = 0) -> Level:
    """The level with every cell of ``code`` turned into ``instead`` (floor by default)."""
    grid = [[instead if v == code else v for v in row] for row in level.grid]
    return Level.make(level.game, grid)


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_each_difficulty_draws_its_element_which_every_plan_needs(difficulty: int) -> None:
    for seed in range(4):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)
        codes = {v for row in level.grid for v in row}
        gates = [code for code in codes if 8 <= code <= 13 and code != 12]
        assert len(gates) >= min(2, difficulty + 1)  # a second colour of gate from 1
        assert ({12, 13} <= codes) == (difficulty >= 2)
        assert ({14, 11} <= codes) == (difficulty == 3)
        assert 7 not in codes  # never an orange pad: orange is only ever mixed
        if difficulty >= 2:
            assert SPEC.solve(_without(level, 12), SPEC.budget) is None  # no washing, no way out
        if difficulty == 3:
            assert SPEC.solve(_without(level, 14), SPEC.budget) is None  # no mixing, no way out
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
