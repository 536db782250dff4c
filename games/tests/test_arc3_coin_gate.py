"""coin-gate: a player who counts the sockets and plans which coins to take, hand-made mazes, the elements."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session
from test_arc3_players import STEPS, Cell, _board, _session

UP, DOWN, RIGHT = Move("ACTION1"), Move("ACTION2"), Move("ACTION4")


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 2), (3, 3)])
def test_coin_gate_by_counting_the_sockets_and_planning_which_coins_to_take(
    seed: int, difficulty: int
) -> None:
    session, shortest = _session("coin-gate", seed, difficulty)
    cells, _, _ = _board(session.frame, 9)  # measured on the blue player
    walls = {c for c, colour in cells.items() if colour == 2}
    below = max(y for _, y in walls)  # the strip of sockets is the row under the maze
    need = sum(1 for (_, y), colour in cells.items() if y > below and colour == 12)
    gate = next(c for c, colour in cells.items() if colour == 12 and c[1] <= below)
    exit_ = next(c for c, colour in cells.items() if colour == 14)
    # Yellow coins count one, magenta ones two; maroon drains empty the purse, purple tolls take one.
    worth = {c: {11: 1, 6: 2}[colour] for c, colour in cells.items() if colour in (11, 6) and c[1] <= below}
    drains = {c for c, colour in cells.items() if colour == 13}
    tolls = {c for c, colour in cells.items() if colour == 15}
    State = tuple[Cell, frozenset[Cell], int]
    start: State = (next(c for c, colour in cells.items() if colour == 9), frozenset(), 0)
    # A person who has seen the gate open only at the exact count plans which coins to take.
    came: dict[State, tuple[State, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        here, taken, purse = state = queue.popleft()
        if here == exit_:
            break
        for action, (dx, dy) in STEPS.items():
            cell = (here[0] + dx, here[1] + dy)
            if cell in walls or (cell == gate and purse != need) or (cell in tolls and purse == 0):
                continue
            now, held = taken, purse
            if cell in worth and cell not in taken:
                now, held = taken | {cell}, purse + worth[cell]
            held = 0 if cell in drains else held - (cell in tolls)
            if held <= sum(worth.values()) and (cell, now, held) not in came:
                came[(cell, now, held)] = (state, action)
                queue.append((cell, now, held))
    keys: list[str] = []
    link = came[state]
    while link is not None:
        keys.append(link[1])
        link = came[link[0]]
    assert here == exit_ and len(keys) == shortest
    for key in reversed(keys):
        session.step(Move(key))
    assert session.won


# coin-gate: 1 wall, 2 start, 3 exit, 4 coin, 5 gate. The gate asks for one coin, but the straight
# way to it takes two; the way round below takes one.
COINS = Level.make("coin-gate", [[1] * 7, [1, 2, 4, 4, 5, 3, 1], [1, 0, 0, 0, 1, 1, 1], [1] * 7], need=1)
# By hand: cells are 2 pixels, the maze 7x4 plus a strip row, so the viewport is 14 x 10 pixels,
# scaled by min(64 // 14, 64 // 10) = 4 at offsets (4, 12): cell (cx, cy) covers frame columns
# 4 + 8cx .. 11 + 8cx and rows 12 + 8cy .. 19 + 8cy; the strip is cell row 4.


def _coin_cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[12 + 8 * cy : 20 + 8 * cy, 4 + 8 * cx : 12 + 8 * cx]


def test_coin_gate_frame_by_hand_and_the_gate_opens_only_at_the_count() -> None:
    session = Session(GAMES["coin-gate"], COINS)
    frame = session.frame
    expected = {
        (0, 0): 2,
        (1, 1): 9,
        (2, 1): 11,
        (3, 1): 11,
        (4, 1): 12,
        (5, 1): 14,
        (1, 2): 5,
        (0, 4): 12,
        (1, 4): 5,
    }
    for (cx, cy), colour in expected.items():
        assert (_coin_cell(frame, cx, cy) == colour).all(), (cx, cy)
    session.step(RIGHT)  # one coin: the first socket turns yellow and the gate shows a checker
    assert (_coin_cell(session.frame, 0, 4) == 11).all()
    gate = _coin_cell(session.frame, 4, 1)
    assert (gate[:4, :4] == 12).all() and (gate[4:, 4:] == 12).all() and (gate[:4, 4:] == 5).all()
    session.step(RIGHT)  # a second coin: one too many, shown red; the gate shuts again
    assert (_coin_cell(session.frame, 1, 4) == 8).all() and (_coin_cell(session.frame, 4, 1) == 12).all()
    before = session.frame.copy()
    session.step(RIGHT)  # the shut gate stops the player
    assert np.array_equal(session.frame, before) and not session.over
    session.reset()
    for key in (DOWN, RIGHT, RIGHT, UP, RIGHT):  # round below, one coin, then through the open gate
        session.step(key)
    assert (_coin_cell(session.frame, 4, 1)[:4, :4] == 9).all() and not session.won
    session.step(RIGHT)
    assert session.won


# Codes beyond the first maze's: 6 a double coin, 7 a drain, 8 a toll.


def test_a_double_coin_fills_two_sockets() -> None:
    maze = Level.make("coin-gate", [[1] * 6, [1, 2, 6, 5, 3, 1], [1] * 6], need=2)
    session = Session(GAMES["coin-gate"], maze)
    # By hand: 6x3 cells and the strip's row, 2 pixels a cell: 12 x 8 pixels, scale 5, offsets
    # (2, 12); cell (cx, cy) covers frame columns 2 + 10cx .. 11 + 10cx, rows 12 + 10cy .. 21 + 10cy.
    assert (session.frame[22:32, 22:32] == 6).all()  # cell (2, 1): the magenta double coin
    assert (session.frame[42:52, 2:22] == 12).all()  # two orange sockets
    session.step(RIGHT)
    assert (session.frame[42:52, 2:22] == 11).all()  # both yellow at once
    session.step(RIGHT)
    session.step(RIGHT)
    assert session.won
    assert GAMES["coin-gate"].solve(maze, 100) == (RIGHT, RIGHT, RIGHT)


def test_a_drain_empties_the_purse_and_a_toll_takes_one_coin() -> None:
    spec = GAMES["coin-gate"]
    # Two coins, then a drain, then one coin, then the gate asking for one: the first two are lost.
    drained = Level.make("coin-gate", [[1] * 9, [1, 2, 4, 4, 7, 4, 5, 3, 1], [1] * 9], need=1)
    session = Session(spec, drained)
    for _ in range(6):
        session.step(RIGHT)
    assert session.won
    # The same with no drain: three coins, one too many, and nothing to give them back to.
    plain = Level.make("coin-gate", [[1] * 9, [1, 2, 4, 4, 0, 4, 5, 3, 1], [1] * 9], need=1)
    assert spec.solve(plain, spec.budget) is None and spec.solve(drained, spec.budget) == (RIGHT,) * 6
    # A toll: two coins, the toll takes one, the gate asks for one.
    tolled = Level.make("coin-gate", [[1] * 8, [1, 2, 4, 4, 8, 5, 3, 1], [1] * 8], need=1)
    assert spec.solve(tolled, spec.budget) == (RIGHT,) * 5
    # A toll with an empty purse stops the player.
    barred = Level.make("coin-gate", [[1] * 7, [1, 2, 8, 4, 5, 3, 1], [1] * 7], need=1)
    session = Session(spec, barred)
    before = session.frame.copy()
    session.step(RIGHT)
    assert np.array_equal(session.frame, before) and spec.solve(barred, spec.budget) is None


ELEMENTS = {1: 6, 2: 7, 3: 8}


@pytest.mark.parametrize("difficulty", sorted(ELEMENTS))
def test_each_difficulty_draws_its_element_and_needs_it(difficulty: int) -> None:
    spec = GAMES["coin-gate"]
    for seed in range(5):
        level, plan = draw_level(spec, ("elements", seed), difficulty)
        codes = {v for row in level.grid for v in row}
        assert ELEMENTS[difficulty] in codes
        assert not any(ELEMENTS[d] in codes for d in ELEMENTS if d > difficulty)
        session = Session(spec, level)
        for move in plan:
            session.step(move)
        assert session.won
        # As a plain coin (for a double) or plain floor, the element would change the plan's length.
        newest = ELEMENTS[difficulty]
        plain = [[(4 if newest == 6 else 0) if v == newest else v for v in row] for row in level.grid]
        other = spec.solve(Level.make("coin-gate", plain, need=level.param("need")), spec.budget)
        assert other is None or len(other) != len(plan)
