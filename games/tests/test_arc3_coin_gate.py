"""coin-gate: a player who counts the sockets and plans which coins to take, and a hand-made maze."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.session import Session
from test_arc3_players import STEPS, Cell, _board, _session

UP, DOWN, RIGHT = Move("ACTION1"), Move("ACTION2"), Move("ACTION4")


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 3)])
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
    coins = {c for c, colour in cells.items() if colour == 11 and c[1] <= below}
    start = (next(c for c, colour in cells.items() if colour == 9), frozenset[Cell]())
    # A person who has seen the gate open only at the exact count plans which coins to take.
    came: dict[tuple[Cell, frozenset[Cell]], tuple[tuple[Cell, frozenset[Cell]], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        here, taken = queue.popleft()
        if here == exit_:
            break
        for action, (dx, dy) in STEPS.items():
            cell = (here[0] + dx, here[1] + dy)
            if cell in walls or (cell == gate and len(taken) != need):
                continue
            state = (cell, taken | {cell} if cell in coins else taken)
            if state not in came:
                came[state] = ((here, taken), action)
                queue.append(state)
    keys: list[str] = []
    link = came[(here, taken)]
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
