"""Scripted human-style play: strategies that see only frames and the offered actions, never a level.

Each strategy is what a person who had worked out the rules might do: follow the right-hand wall,
push the block along, chase the lights row by row, try tilts in turn, turn the piece until it looks
like a hole. None of them calls a solver or reads a Level.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from math import gcd

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

Cell = tuple[int, int]
STEPS = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}


def _session(game_id: str, seed: int, difficulty: int = 0) -> tuple[Session, int]:
    spec = GAMES[game_id]
    level, plan = draw_level(spec, ("players", seed), difficulty)
    return Session(spec, level), len(plan)


def _pixels(frame: np.ndarray, colour: int) -> list[Cell]:
    ys, xs = np.nonzero(frame == colour)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


def _corner(frame: np.ndarray, colour: int) -> Cell:
    """The top-left corner of everything drawn in ``colour``."""
    pixels = _pixels(frame, colour)
    return min(x for x, _ in pixels), min(y for _, y in pixels)


def _cell_size(frame: np.ndarray, colour: int) -> int:
    """How many frame pixels a board cell spans: the gcd of the colour's runs along rows and columns."""
    size = 0
    for lines in (frame, frame.T):
        for line in lines:
            mask = np.concatenate(([0], (line == colour).astype(np.int8), [0]))
            edges = np.flatnonzero(np.diff(mask))
            for start, end in zip(edges[::2], edges[1::2], strict=True):
                size = gcd(size, int(end - start))
    return size


def _board(frame: np.ndarray, anchor: int) -> tuple[dict[Cell, int], int, Cell]:
    """The colour at the top-left pixel of every board cell, measured from an object of one colour."""
    size = _cell_size(frame, anchor)
    ax, ay = _corner(frame, anchor)
    ox, oy = ax % size, ay % size
    cells = {
        (cx, cy): int(frame[oy + cy * size, ox + cx * size])
        for cy in range(64 // size)
        for cx in range(64 // size)
    }
    return cells, size, (ox, oy)


def _route(start: Cell, goal: Cell, free: Iterator[Cell] | set[Cell]) -> list[str]:
    """Arrow keys along a shortest walk from start to goal through free cells."""
    allowed = set(free) | {goal}
    came: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            break
        for action, (dx, dy) in STEPS.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in allowed and nxt not in came:
                came[nxt] = (cell, action)
                queue.append(nxt)
    keys: list[str] = []
    link = came.get(goal)
    while link is not None:
        cell, action = link
        keys.append(action)
        link = came[cell]
    return keys[::-1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_keys_doors_by_following_the_right_hand_wall(seed: int) -> None:
    session, _ = _session("keys-doors", seed)
    clockwise = ["ACTION1", "ACTION4", "ACTION2", "ACTION3"]
    heading, where = 1, _corner(session.frame, 9)  # the blue player
    for _ in range(2_000):
        for turn in (1, 0, 3, 2):  # right, ahead, left, back
            direction = (heading + turn) % 4
            session.step(Move(clockwise[direction]))
            if session.won:
                return
            now = _corner(session.frame, 9)
            if now != where:
                heading, where = direction, now
                break
    pytest.fail("the wall follower never reached the exit")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_push_blocks_by_walking_behind_the_block_and_pushing(seed: int) -> None:
    session, _ = _session("push-blocks", seed)
    # Cells are measured on the grey walls: the player and the blocks shrink to a dot inside a ring.
    cells, size, (ox, oy) = _board(session.frame, 3)
    middle = {
        c: int(session.frame[oy + c[1] * size + size // 2, ox + c[0] * size + size // 2]) for c in cells
    }
    walls = {c for c, colour in middle.items() if colour in (3, 4)}
    target = next(c for c, colour in cells.items() if colour == 14)  # a green ring's corner
    block = next(c for c, colour in middle.items() if colour == 12)
    player = next(c for c, colour in middle.items() if colour == 9)
    # Plan pushes of the one block, each preceded by a walk round to the cell behind it.
    came: dict[tuple[Cell, Cell], tuple[tuple[Cell, Cell], list[str]] | None] = {(block, player): None}
    queue = deque([(block, player)])
    while queue:
        block, player = queue.popleft()
        if block == target:
            break
        open_floor = {c for c in middle if c not in walls and c != block}
        for action, (dx, dy) in STEPS.items():
            behind, ahead = (block[0] - dx, block[1] - dy), (block[0] + dx, block[1] + dy)
            if behind in walls or ahead in walls or behind not in middle:
                continue
            walk = _route(player, behind, open_floor)
            if (walk or player == behind) and (ahead, block) not in came:
                came[(ahead, block)] = ((block, player), [*walk, action])
                queue.append((ahead, block))
    keys: list[str] = []
    link = came[(block, player)]
    while link is not None:
        state, walk = link
        keys[:0] = walk
        link = came[state]
    for key in keys:
        session.step(Move(key))
    assert session.won


def _tiles(frame: np.ndarray) -> tuple[list[list[Cell]], list[list[Cell]]]:
    """The board's tiles and the pattern's tiles as rows of their top-left pixels (big tiles first)."""
    lit_or_dark = (frame == 11) | (frame == 3)
    seen = np.zeros_like(lit_or_dark)
    found: list[tuple[int, Cell]] = []
    for y, x in zip(*np.nonzero(lit_or_dark), strict=True):
        if seen[y, x]:
            continue
        width = int(np.argmin(lit_or_dark[y, x:])) or 64 - int(x)
        seen[y : y + width, x : x + width] = True
        found.append((width, (int(x), int(y))))
    big = max(w for w, _ in found)
    rows: list[list[list[Cell]]] = []
    for on_board in (True, False):
        corners = sorted((c for w, c in found if (w == big) == on_board), key=lambda c: (c[1], c[0]))
        n = int(len(corners) ** 0.5)
        rows.append([corners[r * n : (r + 1) * n] for r in range(n)])
    return rows[0], rows[1]


def test_toggle_pattern_by_chasing_the_lights_down_the_board() -> None:
    # Difficulty 0 has plain tiles only; the kinds later difficulties add are what a chase down the
    # board does not know (test_arc3_toggle_pattern plays them).
    session, _ = _session("toggle-pattern", 0, difficulty=0)
    board, panel = _tiles(session.frame)
    n = len(board)

    def wrong(r: int, c: int) -> bool:
        (bx, by), (px, py) = board[r][c], panel[r][c]
        return bool((session.frame[by, bx] == 11) != (session.frame[py, px] == 11))

    def click(r: int, c: int) -> None:
        if not session.won:
            session.step(Move.click(board[r][c][0] + 1, board[r][c][1] + 1))

    for guess in range(2**n):  # a person tries the first row's clicks, then chases the rest down
        session.reset()
        for c in range(n):
            if guess >> c & 1:
                click(0, c)
        for r in range(n - 1):
            for c in range(n):
                if not session.won and wrong(r, c):
                    click(r + 1, c)
        if session.won:
            return
    pytest.fail("no first-row guess chased down to the pattern")


@pytest.mark.parametrize("seed", [0, 1])
def test_tilt_gravity_by_trying_every_tilt_and_remembering_the_boards_seen(seed: int) -> None:
    session, shortest = _session("tilt-gravity", seed, difficulty=1)
    seen = {session.frame.tobytes()}
    queue: deque[tuple[str, ...]] = deque([()])
    while queue:
        tried = queue.popleft()
        for action in session.actions:
            session.reset()
            for key in (*tried, action):
                session.step(Move(key))
            if session.won:
                # Trying shortest sequences first, the player needs exactly as many tilts as the solver.
                assert len(tried) + 1 == shortest
                return
            if not session.lost and session.frame.tobytes() not in seen:
                seen.add(session.frame.tobytes())
                queue.append((*tried, action))
    pytest.fail("every board reachable was tried without a win")


def _shape(cells: list[Cell]) -> tuple[Cell, ...]:
    x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
    return tuple(sorted((x - x0, y - y0) for x, y in cells))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shape_fit_by_turning_the_piece_until_it_looks_like_a_hole(seed: int) -> None:
    session, _ = _session("shape-fit", seed)
    cells, _, _ = _board(session.frame, 6)  # the magenta piece
    walls = {c for c, colour in cells.items() if colour in (3, 4)}
    light = {c for c, colour in cells.items() if colour == 1}
    holes: list[list[Cell]] = []
    while light:  # the holes are the light cells' connected groups
        group = [light.pop()]
        for x, y in group:
            for dx, dy in STEPS.values():
                if (x + dx, y + dy) in light:
                    light.remove((x + dx, y + dy))
                    group.append((x + dx, y + dy))
        holes.append(group)
    for _ in range(12):
        piece = [c for c, colour in _board(session.frame, 6)[0].items() if colour == 6]
        hole = next((h for h in holes if _shape(h) == _shape(piece)), None)
        if hole is not None:
            break
        before = session.frame.copy()
        session.step(Move("ACTION5"))
        if np.array_equal(before, session.frame):  # the turn hit a wall: step away from it first
            session.step(Move("ACTION2" if piece[0][1] < 5 else "ACTION1"))
    assert hole is not None
    # Slide the piece's corner to the hole's corner along cells where the whole piece fits.
    shape = _shape(piece)
    corner = (min(x for x, _ in piece), min(y for _, y in piece))
    fits = {
        (x, y)
        for x in range(-2, 20)
        for y in range(-2, 20)
        if not any((x + dx, y + dy) in walls for dx, dy in shape)
    }
    goal = (min(x for x, _ in hole), min(y for _, y in hole))
    for key in _route(corner, goal, fits):
        session.step(Move(key))
    assert session.won
