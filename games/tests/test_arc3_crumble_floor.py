"""crumble-floor: a hand-made floor's frames worked out by hand, falls, and a player who plans ahead."""

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

SPEC = GAMES["crumble-floor"]
UP, DOWN, LEFT, RIGHT = (Move(a) for a in STEPS)

# Codes: 0 crumbling tile, 1 wall, 2 start, 3 exit, 4 gem, 5 stone, 6 hole.
FLOOR = Level.make("crumble-floor", [[1] * 6, [1, 2, 4, 0, 5, 1], [1, 6, 0, 3, 0, 1], [1] * 6])

# By hand: cells are 3 pixels, the viewport 18x12; the camera scales it by min(64 // 18, 64 // 12)
# = 3 and centres it at offsets (5, 14): cell (cx, cy) is frame columns 5 + 9 cx .. 13 + 9 cx and
# rows 14 + 9 cy .. 22 + 9 cy, each of its 3x3 pixels a 3x3 square of the frame.
PLUS = np.kron(np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool), np.ones((3, 3), dtype=bool))
MIDDLE = np.kron(np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], dtype=bool), np.ones((3, 3), dtype=bool))


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[14 + 9 * cy : 23 + 9 * cy, 5 + 9 * cx : 14 + 9 * cx]


def _shows(block: np.ndarray, mask: np.ndarray, inside: int, outside: int) -> bool:
    return bool((block[mask] == inside).all() and (block[~mask] == outside).all())


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, FLOOR).frame
    assert (frame[:14] == 4).all() and (frame[:, :5] == 4).all() and (frame[50:] == 4).all()
    assert (_cell(frame, 0, 0) == 3).all() and (_cell(frame, 1, 1) == 9).all()
    assert _shows(_cell(frame, 2, 1), PLUS, 11, 13)  # a gem on its tile
    assert (_cell(frame, 3, 1) == 13).all() and (_cell(frame, 4, 1) == 1).all()  # a tile, a stone
    assert (_cell(frame, 1, 2) == 5).all()  # a hole
    assert _shows(_cell(frame, 3, 2), MIDDLE, 1, 14)  # the exit, a ring while a gem is left


def test_tiles_crumble_behind_the_player_and_the_exit_opens_with_the_last_gem() -> None:
    session = Session(SPEC, FLOOR)
    session.step(RIGHT)
    assert (_cell(session.frame, 1, 1) == 5).all() and (_cell(session.frame, 2, 1) == 9).all()
    assert (_cell(session.frame, 3, 2) == 14).all()  # no gem left: the exit fills in
    session.step(DOWN)
    assert (_cell(session.frame, 2, 1) == 5).all()
    session.step(RIGHT)
    assert session.won


def test_stepping_into_a_hole_old_or_new_is_a_fall() -> None:
    session = Session(SPEC, FLOOR)
    session.step(DOWN)
    assert session.lost
    session.reset()
    session.step(RIGHT)
    session.step(LEFT)  # back onto the start, which has crumbled
    assert session.lost and (_cell(session.frame, 1, 1) == 9).all()


def test_stone_holds_and_the_exit_waits_for_every_gem() -> None:
    session = Session(SPEC, FLOOR)
    for key in (RIGHT, RIGHT, RIGHT, DOWN, UP):
        session.step(key)
    assert (_cell(session.frame, 4, 1) == 9).all() and not session.over
    session.step(DOWN)  # the tile below crumbled when the player went back up
    assert session.lost
    early = Level.make("crumble-floor", [[1] * 5, [1, 2, 3, 4, 1], [1] * 5])
    session = Session(SPEC, early)
    session.step(RIGHT)  # onto the exit with a gem left: nothing happens
    assert not session.over
    # This level's viewport is 15x9, scaled by 4 at offsets (2, 14): cell (cx, 1) is frame
    # columns 2 + 12 cx .. 13 + 12 cx and rows 26 .. 37.
    gem = np.kron(PLUS[::3, ::3], np.ones((4, 4), dtype=bool))
    assert _shows(session.frame[26:38, 38:50], gem, 11, 13)
    session.step(RIGHT)  # the gem; the exit behind does not crumble, and it is open now
    assert (session.frame[26:38, 26:38] == 14).all()
    session.step(LEFT)
    assert session.won


def _read(frame: np.ndarray) -> tuple[Cell, dict[Cell, str]]:
    """The player's cell and what every other cell is: tile, stone, gem, exit or hole (walls left out)."""
    size, origin = lattice(frame)
    third = size // 3
    kinds = {}
    for c, block in cells(frame, size, origin).items():
        corner, middle = int(block[0, 0]), int(block[third, third])
        if (block == 9).all():
            player = c
            kinds[c] = "tile"  # every start is a crumbling tile
        elif corner == 13:
            kinds[c] = "gem" if middle == 11 else "tile"
        elif corner == 14:
            kinds[c] = "exit"
        elif corner == 1:
            kinds[c] = "stone"
    return player, kinds


def _plan(player: Cell, kinds: dict[Cell, str]) -> list[str]:
    """Breadth-first over (cell, tiles crumbled, gems left), never stepping where floor has gone."""
    gems = frozenset(c for c, kind in kinds.items() if kind == "gem")
    start = (player, frozenset[Cell](), gems)
    came: dict[tuple[Cell, frozenset[Cell], frozenset[Cell]], tuple[object, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        (x, y), gone, left = state
        if kinds[(x, y)] == "exit" and not left:
            keys: list[str] = []
            link = came[state]
            while link is not None:
                keys.insert(0, link[1])
                link = came[link[0]]  # type: ignore[index]
            return keys
        after = gone | {(x, y)} if kinds[(x, y)] in ("tile", "gem") else gone
        for action, (dx, dy) in STEPS.items():
            step = (x + dx, y + dy)
            if step in kinds and step not in after:
                nxt = (step, after, left - {step})
                if nxt not in came:
                    came[nxt] = (state, action)
                    queue.append(nxt)
    return []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_crumble_floor_by_planning_a_route_that_never_turns_back(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 0)
    session = Session(SPEC, level)
    keys = _plan(*_read(session.frame))
    assert len(keys) == len(plan)
    for key in keys:
        session.step(Move(key))
    assert session.won


def test_a_sturdy_tile_holds_once_then_crumbles() -> None:
    # Code 7: a sturdy tile at (3, 1) between stone at (2, 1) and a gem in a dead end at (4, 1); the
    # exit is under the stone. Same 6x4 layout as FLOOR's, so the same cells of the frame.
    rows = [[1] * 6, [1, 2, 5, 7, 4, 1], [1, 6, 3, 6, 6, 1], [1] * 6]
    level = Level.make("crumble-floor", rows)
    session = Session(SPEC, level)
    assert (_cell(session.frame, 3, 1) == 12).all()  # orange: sturdy
    for move in (RIGHT, RIGHT, RIGHT):  # onto the gem: the sturdy tile held, cracked (dark red)
        session.step(move)
    assert (_cell(session.frame, 3, 1) == 13).all()
    session.step(LEFT)
    session.step(LEFT)  # off it a second time: now it falls
    assert (_cell(session.frame, 3, 1) == 5).all() and not session.over
    session.step(DOWN)
    assert session.won
    assert SPEC.solve(level, SPEC.budget) == (RIGHT, RIGHT, RIGHT, LEFT, LEFT, DOWN)
    # As a plain tile it falls behind the player on the way in: the gem is a trap.
    plain = Level.make("crumble-floor", [[0 if v == 7 else v for v in row] for row in rows])
    assert SPEC.solve(plain, SPEC.budget) is None


@pytest.mark.parametrize("difficulty", [1, 2])
def test_each_difficulty_draws_its_element(difficulty: int) -> None:
    for seed in range(4):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)
        codes = {v for row in level.grid for v in row}
        assert 5 in codes  # stone, from difficulty 1
        assert (7 in codes) == (difficulty == 2)  # sturdy tiles
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
