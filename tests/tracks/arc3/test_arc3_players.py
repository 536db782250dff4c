"""Scripted human-style play: strategies that see only frames and the offered actions, never a level.

Each strategy is what a person who had worked out the rules might do: follow the right-hand wall,
push the block along, chase the lights row by row, try tilts in turn, turn the piece until it looks
like a hole. None of them calls a solver or reads a Level.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from math import gcd
from typing import Any

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc.tracks.arc3.games import GAMES
from continual_arc.tracks.arc3.games.base import Move
from continual_arc.tracks.arc3.games.draw import draw_level
from continual_arc.tracks.arc3.games.session import Session

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
    session, _ = _session("toggle-pattern", 0, difficulty=1)
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


def _blobs(frame: np.ndarray, colour: int) -> list[list[Cell]]:
    """The pixels of ``colour`` grouped into 4-connected blobs, in row-major order of their first pixel."""
    left = set(_pixels(frame, colour))
    blobs: list[list[Cell]] = []
    for start in sorted(left, key=lambda c: (c[1], c[0])):
        if start not in left:
            continue
        left.remove(start)
        blob = [start]
        for x, y in blob:
            for dx, dy in STEPS.values():
                if (x + dx, y + dy) in left:
                    left.remove((x + dx, y + dy))
                    blob.append((x + dx, y + dy))
        blobs.append(blob)
    return blobs


def _middle(blob: list[Cell]) -> Cell:
    xs, ys = [x for x, _ in blob], [y for _, y in blob]
    return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 2), (2, 3)])
def test_sequence_tiles_by_writing_down_the_show_and_clicking_it_back(seed: int, difficulty: int) -> None:
    session, shortest = _session("sequence-tiles", seed, difficulty)
    # The show is the reset's animation: note where the yellow light is in every frame that has one.
    show = [_middle(_blobs(frame, 11)[0]) for frame in session.frames if (frame == 11).any()]
    assert len(show) == shortest
    for x, y in show:
        assert not session.over
        session.step(Move.click(x, y))
    assert session.won


def _looks(blob: list[Cell], frame: np.ndarray) -> dict[str, object]:
    """What a person notes about a shape: its colour, size, form (however turned) and pose."""
    xs, ys = [x for x, _ in blob], [y for _, y in blob]
    x0, y0 = min(xs), min(ys)
    patch = np.zeros((max(ys) - y0 + 1, max(xs) - x0 + 1), dtype=np.uint8)
    for x, y in blob:
        patch[y - y0, x - x0] = 1
    size = _cell_size(patch, 1)  # the shape's cells are squares of this many pixels
    cells = patch[::size, ::size]
    turns = [np.rot90(cells, k) for k in range(4)]
    return {
        "colour": int(frame[blob[0][1], blob[0][0]]),
        "size": size,
        "form": min(t.tobytes() + bytes(t.shape) for t in turns),
        "pose": cells.tobytes() + bytes(cells.shape),
    }


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 2), (2, 3)])
def test_odd_one_out_by_comparing_every_likeness_of_the_shapes(seed: int, difficulty: int) -> None:
    session, rounds = _session("odd-one-out", seed, difficulty)
    for _ in range(rounds):
        blobs = [blob for colour in range(6, 16) for blob in _blobs(session.frame, colour)]
        looks = [_looks(blob, session.frame) for blob in blobs]
        odd = set()
        for feature in ("colour", "size", "form", "pose"):
            values = [look[feature] for look in looks]
            lone = [i for i, v in enumerate(values) if values.count(v) == 1]
            if len(set(map(repr, values))) == 2 and len(lone) == 1:
                odd.add(lone[0])
        assert len(odd) == 1, "the shapes should leave exactly one odd one"
        session.step(Move.click(*_middle(blobs[odd.pop()])))
    assert session.won


def _blob_at(blobs: list[list[Cell]], pixel: Cell) -> list[Cell] | None:
    return next((blob for blob in blobs if pixel in blob), None)


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 3), (1, 1), (2, 2)])
def test_symmetry_draw_by_copying_each_cell_across_the_white_line(seed: int, difficulty: int) -> None:
    session, _ = _session("symmetry-draw", seed, difficulty)
    editable: str | None = None
    for _ in range(100):
        frame = session.frame
        blobs = [blob for colour in range(1, 16) if colour != 4 for blob in _blobs(frame, colour)]
        line = _pixels(frame, 0)
        bottom = max(min(y for _, y in blob) for blob in blobs)  # the palette's row
        palette = {int(frame[b[0][1], b[0][0]]): b for b in blobs if min(y for _, y in b) == bottom}
        axis = [p for p in line if p[1] < bottom]  # the mark under the selected swatch is white too
        xs, ys = [x for x, _ in axis], [y for _, y in axis]
        upright = max(xs) - min(xs) < max(ys) - min(ys)
        cells = [b for b in blobs if min(y for _, y in b) < bottom]

        def side(blob: list[Cell], upright: bool = upright, xs: list[int] = xs, ys: list[int] = ys) -> bool:
            return blob[0][0] < min(xs) if upright else blob[0][1] < min(ys)

        def colour(blob: list[Cell], frame: np.ndarray = frame) -> int:
            value = int(frame[blob[0][1], blob[0][0]])
            return 0 if value in (2, 3) else value  # both greys are empty cells

        pairs = []
        for blob in cells:
            x, y = blob[0]
            mirror = (min(xs) + max(xs) - x, y) if upright else (x, min(ys) + max(ys) - y)
            other = _blob_at(cells, mirror)
            assert other is not None
            if colour(blob) != colour(other) and side(blob):
                pairs.append((blob, other))
        if not pairs:
            break
        first, second = pairs[0]
        if editable is None:  # click one of the pair: if nothing changes, the other half is the player's
            before = frame.copy()
            session.step(Move.click(*_middle(first)))
            editable = "first" if not np.array_equal(before, session.frame) else "second"
            continue
        mine, model = (first, second) if editable == "first" else (second, first)
        wanted = colour(model) or colour(mine)  # to empty a cell, select its own colour and click it
        session.step(Move.click(*_middle(palette[wanted])))
        session.step(Move.click(*_middle(mine)))
    assert session.won


def _framed_tiles(frame: np.ndarray, ring: list[Cell]) -> dict[Cell, int]:
    """The colour of every (column, row) cell inside a grey frame; an empty cell is missing."""
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    inside = [
        blob
        for colour in range(6, 16)
        for blob in _blobs(frame, colour)
        if min(xs) < blob[0][0] < max(xs) and min(ys) < blob[0][1] < max(ys)
    ]
    columns = sorted({min(x for x, _ in blob) for blob in inside})
    rows = sorted({min(y for _, y in blob) for blob in inside})
    return {
        (columns.index(min(x for x, _ in blob)), rows.index(min(y for _, y in blob))): int(
            frame[blob[0][1], blob[0][0]]
        )
        for blob in inside
    }


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 2)])
def test_slide_puzzle_by_reading_both_pictures_and_planning_the_slides(seed: int, difficulty: int) -> None:
    session, shortest = _session("slide-puzzle", seed, difficulty)
    board_ring, picture_ring = sorted(_blobs(session.frame, 2), key=len, reverse=True)
    board, picture = _framed_tiles(session.frame, board_ring), _framed_tiles(session.frame, picture_ring)
    spots = set(picture) | set(board)  # together they cover every cell
    # A person who knows an arrow pushes the tile on the far side of the gap into it plans ahead.
    start, goal = tuple(sorted(board.items())), tuple(sorted(picture.items()))
    came: dict[tuple[tuple[Cell, int], ...], tuple[tuple[tuple[Cell, int], ...], str] | None] = {start: None}
    queue = deque([start])
    while queue and goal not in came:
        state = queue.popleft()
        tiles = dict(state)
        gap = next(spot for spot in sorted(spots) if spot not in tiles)
        for action, (dx, dy) in STEPS.items():
            source = (gap[0] - dx, gap[1] - dy)
            if source in tiles:
                moved = {**tiles, gap: tiles[source]}
                del moved[source]
                nxt = tuple(sorted(moved.items()))
                if nxt not in came:
                    came[nxt] = (state, action)
                    queue.append(nxt)
    keys: list[str] = []
    link = came[goal]
    while link is not None:
        keys.append(link[1])
        link = came[link[0]]
    assert len(keys) == shortest
    for key in reversed(keys):
        session.step(Move(key))
    assert session.won


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


def _lift_world(frame: np.ndarray) -> dict[str, Any]:
    """What a person sees in a lever-lift frame: rock, shafts and platforms, levers, door, player."""
    _, size, (ox, oy) = _board(frame, 9)  # measured on the blue player
    blocks = {
        (cx, cy): frame[oy + cy * size : oy + (cy + 1) * size, ox + cx * size : ox + (cx + 1) * size]
        for cy in range((64 - oy) // size)
        for cx in range((64 - ox) // size)
    }
    seen = {c: {int(v) for v in np.unique(b)} for c, b in blocks.items()}
    platforms = {hue: c for c, colours in seen.items() for hue in (12, 15) if colours == {hue}}
    levers = {}  # cell: (hue, rows moved): a triangle is wider at its base, so "up" is wider below
    for c, colours in seen.items():
        for hue in (12, 15):
            if hue in colours and len(colours) > 1:
                upper = int((blocks[c][: size // 2] == hue).sum())
                lower = int((blocks[c][size // 2 :] == hue).sum())
                levers[c] = (hue, -1 if lower > upper else 1)
    shafts = {}
    for hue, (px, _) in platforms.items():
        rows = [cy for (cx, cy), colours in seen.items() if cx == px and colours in ({4}, {hue})]
        shafts[hue] = (px, min(rows), max(rows))
    return {
        "rock": {c for c, colours in seen.items() if colours == {3}},
        "platforms": {hue: c[1] for hue, c in platforms.items()},
        "shafts": shafts,
        "levers": levers,
        "door": next(c for c, colours in seen.items() if 14 in colours),
        "player": next(c for c, colours in seen.items() if colours == {9}),
    }


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 2), (2, 3)])
def test_lever_lift_by_reading_the_scene_and_planning_walks_and_pulls(seed: int, difficulty: int) -> None:
    session, shortest = _session("lever-lift", seed, difficulty)
    world = _lift_world(session.frame)
    hues = sorted(world["shafts"])

    def solid(cell: Cell, rows: tuple[int, ...]) -> bool:
        lifts = {(world["shafts"][hue][0], row) for hue, row in zip(hues, rows, strict=True)}
        return cell in world["rock"] or cell in lifts

    def after(state: tuple[Cell, tuple[int, ...]], action: str) -> tuple[Cell, tuple[int, ...]]:
        (x, y), rows = state
        if action == "ACTION5":  # a lever moves its platform one row, within its shaft
            if (x, y) not in world["levers"]:
                return state
            hue, way = world["levers"][(x, y)]
            i = hues.index(hue)
            _, top, bottom = world["shafts"][hue]
            moved = list(rows)
            moved[i] = min(bottom, max(top, rows[i] + way))
            return (x, y), tuple(moved)
        dx = -1 if action == "ACTION3" else 1
        if solid((x + dx, y), rows):  # a wall: climb it if it is one cell and there is headroom
            if solid((x, y - 1), rows) or solid((x + dx, y - 1), rows):
                return state
            return (x + dx, y - 1), rows
        x += dx
        while not solid((x, y + 1), rows):  # nothing below: fall
            y += 1
        return (x, y), rows

    start = (world["player"], tuple(world["platforms"][hue] for hue in hues))
    came: dict[tuple[Cell, tuple[int, ...]], tuple[tuple[Cell, tuple[int, ...]], str] | None] = {start: None}
    queue = deque([start])
    state = start
    while queue:
        state = queue.popleft()
        if state[0] == world["door"]:
            break
        for action in session.actions:
            nxt = after(state, action)
            if nxt not in came:
                came[nxt] = (state, action)
                queue.append(nxt)
    keys: list[str] = []
    link = came[state]
    while link is not None:
        keys.append(link[1])
        link = came[link[0]]
    assert state[0] == world["door"] and len(keys) == shortest
    for key in reversed(keys):
        session.step(Move(key))
    assert session.won
