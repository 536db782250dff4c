"""bridge-switches: a hand-made level's frames worked out by hand, and a player who models the gates."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arc3_frame_reading import STEPS, Cell, cells, lattice
from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["bridge-switches"]
UP, DOWN, LEFT, RIGHT = (Move(a) for a in STEPS)

# Codes: 1 wall, 2 start, 3 exit, 4 a red switch, 7 a raised red gate, 10 a lowered red gate.
# The short way crosses the raised gate once the switch is pressed; the long way crosses the
# lowered gate, which the same press raises.
FORK = Level.make("bridge-switches", [[1] * 7, [1, 2, 4, 7, 0, 3, 1], [1, 0, 0, 10, 0, 1, 1], [1] * 7])

# By hand: cells are 3 pixels, the viewport 21x12; the camera scales it by min(64 // 21, 64 // 12)
# = 3 and centres it at offsets (0, 14): cell (cx, cy) is frame columns 9 cx .. 9 cx + 8 and rows
# 14 + 9 cy .. 22 + 9 cy, and each of its 3x3 pixels a 3x3 square of the frame.
PLUS = np.kron(np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool), np.ones((3, 3), dtype=bool))
CORNERS = np.kron(np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], dtype=bool), np.ones((3, 3), dtype=bool))


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[14 + 9 * cy : 23 + 9 * cy, 9 * cx : 9 * cx + 9]


def _shows(block: np.ndarray, mask: np.ndarray, colour: int) -> bool:
    return bool((block[mask] == colour).all() and (block[~mask] == 5).all())


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, FORK).frame
    assert (frame[:14] == 4).all() and (frame[50:] == 4).all() and (frame[:, 63] == 4).all()
    assert (_cell(frame, 0, 0) == 2).all() and (_cell(frame, 5, 2) == 2).all()  # walls
    assert (_cell(frame, 1, 1) == 9).all() and (_cell(frame, 5, 1) == 14).all()  # player, exit
    assert _shows(_cell(frame, 2, 1), PLUS, 8)  # the switch
    assert (_cell(frame, 3, 1) == 8).all()  # the raised gate
    assert _shows(_cell(frame, 3, 2), CORNERS, 8)  # the lowered gate
    assert (_cell(frame, 4, 1) == 5).all()  # floor


def test_each_entry_onto_a_switch_flips_every_gate_of_its_colour() -> None:
    session = Session(SPEC, FORK)
    session.step(RIGHT)
    assert (_cell(session.frame, 2, 1) == 9).all()
    assert _shows(_cell(session.frame, 3, 1), CORNERS, 8) and (_cell(session.frame, 3, 2) == 8).all()
    session.step(LEFT)  # stepping off changes nothing
    assert _shows(_cell(session.frame, 3, 1), CORNERS, 8)
    session.step(RIGHT)  # stepping on again flips them back
    assert (_cell(session.frame, 3, 1) == 8).all() and _shows(_cell(session.frame, 3, 2), CORNERS, 8)
    session.step(RIGHT)  # into the raised gate: stopped
    assert (_cell(session.frame, 2, 1) == 9).all()
    session.reset()
    for key in (RIGHT, RIGHT, RIGHT, RIGHT):
        session.step(key)
    assert session.won and session.moves == 4


def test_the_long_way_is_open_until_the_switch_raises_its_gate() -> None:
    session = Session(SPEC, FORK)
    for key in (DOWN, RIGHT, RIGHT, RIGHT, UP, RIGHT):
        session.step(key)
    assert session.won
    session.reset()
    for key in (RIGHT, LEFT, DOWN, RIGHT, RIGHT):  # the press raised the lower gate
        session.step(key)
    assert (_cell(session.frame, 2, 2) == 9).all()


def _read(
    frame: np.ndarray,
) -> tuple[Cell, Cell, set[Cell], dict[Cell, frozenset[int]], dict[Cell, tuple[int, bool]]]:
    """Player, exit, walls, switches (cell: the colours of its arms and middle) and gates from a frame.

    A gate is read as (colour, raised).
    """
    size, origin = lattice(frame)
    third = size // 3
    switches, gates = {}, {}
    walls = set()
    for c, block in cells(frame, size, origin).items():
        corner, edge, middle = int(block[0, 0]), int(block[0, third]), int(block[third, third])
        if (block == 9).all():
            player = c
        elif (block == 14).all():
            goal = c
        elif corner in (2, 4) or (block == 4).any():
            walls.add(c)
        elif corner == 5 and edge != 5:
            switches[c] = frozenset((edge, middle))
        elif corner != 5:
            gates[c] = (corner, middle == corner)
    return player, goal, walls, switches, gates


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("difficulty", [2, 3])
def test_bridge_switches_by_planning_over_the_gates_states(seed: int, difficulty: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), difficulty)
    session = Session(SPEC, level)
    player, goal, walls, switches, gates = _read(session.frame)
    start = (player, frozenset[int]())
    came: dict[tuple[Cell, frozenset[int]], tuple[tuple[Cell, frozenset[int]], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        (x, y), flipped = state = queue.popleft()
        if (x, y) == goal:
            break
        for action, (dx, dy) in STEPS.items():
            step = (x + dx, y + dy)
            colour, raised = gates.get(step, (-1, False))
            if step in walls or raised != (colour in flipped):
                continue  # a wall, or a gate that is up now
            after = flipped ^ switches.get(step, frozenset())
            if (step, after) not in came:
                came[(step, after)] = (state, action)
                queue.append((step, after))
    keys: list[str] = []
    link = came[state]
    while link is not None:
        keys.insert(0, link[1])
        link = came[link[0]]
    assert len(keys) == len(plan)
    for key in keys:
        session.step(Move(key))
    assert session.won


# Codes: 2 start, 17 a magenta switch linked to red, 7 a raised red gate, 9 a raised magenta gate.
LINKED = Level.make("bridge-switches", [[1] * 7, [1, 2, 17, 7, 9, 3, 1], [1] * 7])


def test_a_linked_switch_shows_both_colours_and_flips_both() -> None:
    session = Session(SPEC, LINKED)
    _, _, _, switches, gates = _read(session.frame)
    assert list(switches.values()) == [frozenset((6, 8))]
    assert [gates[c] for c in sorted(gates)] == [(8, True), (6, True)]  # left to right
    session.step(RIGHT)
    gates = _read(session.frame)[4]
    assert [gates[c] for c in sorted(gates)] == [(8, False), (6, False)]
    for _ in range(3):
        session.step(RIGHT)
    assert session.won


def _walk(level: Level, plan: tuple[Move, ...]) -> list[int]:
    """The level's codes under the player after each move of ``plan``, by stepping it over the grid."""
    x, y = next((x, y) for y, row in enumerate(level.grid) for x, v in enumerate(row) if v == 2)
    under = []
    for move in plan:
        dx, dy = STEPS[move.action]
        x, y = x + dx, y + dy
        under.append(level.grid[y][x])
    return under


@pytest.mark.parametrize("seed", range(4))
def test_what_difficulties_two_and_three_add(seed: int) -> None:
    """2: a lowered red gate and two red switches, red flipped twice; 3: a linked switch pressed."""
    red = {4, 13, 14, 15, 17}  # switches that flip colour 0: its own, and the linked ones
    for difficulty in (1, 2, 3):
        level, plan = draw_level(SPEC, ("adds", seed), difficulty)
        codes = [v for row in level.grid for v in row]
        under = _walk(level, plan)
        if difficulty >= 2:
            assert 10 in codes and codes.count(4) >= 2 and sum(v in red for v in under) >= 2
        assert any(v >= 13 for v in under) == (difficulty == 3)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
