"""symmetry-draw: a player copying cells across the line, a hand-made board, and the fewest clicks."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session, replay
from continual_arc_games.symmetry_draw import cost_to_go
from frame_blobs import find_blobs, middle_of
from test_arc3_players import Cell, _pixels, _session


def _blob_at(blobs: list[list[Cell]], pixel: Cell) -> list[Cell] | None:
    return next((blob for blob in blobs if pixel in blob), None)


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 1)])  # one axis: 0 and 1
def test_symmetry_draw_by_copying_each_cell_across_the_white_line(seed: int, difficulty: int) -> None:
    session, _ = _session("symmetry-draw", seed, difficulty)
    editable: str | None = None
    for _ in range(100):
        frame = session.frame
        blobs = [blob for colour in range(1, 16) if colour != 4 for blob in find_blobs(frame, colour)]
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
            session.step(Move.click(*middle_of(first)))
            editable = "first" if not np.array_equal(before, session.frame) else "second"
            continue
        mine, model = (first, second) if editable == "first" else (second, first)
        wanted = colour(model) or colour(mine)  # to empty a cell, select its own colour and click it
        session.step(Move.click(*middle_of(palette[wanted])))
        session.step(Move.click(*middle_of(mine)))
    assert session.won


# symmetry-draw: a 4x2 board, a vertical axis, the left half fixed; palette 1 red (8), 2 blue (9),
# red selected. The right half lacks a red cell at (3, 0) and a blue one at (2, 1).
MIRROR = Level.make(
    "symmetry-draw", [[1, 0, 0, 0], [2, 2, 0, 2]], axis=0, locked=0, hue1=8, hue2=9, selected=1
)
# By hand: the viewport is 3 * 4 + 1 = 13 by 3 * 2 + 5 = 11 pixels, scaled by min(64 // 13, 64 // 11)
# = 4 at offsets (6, 10). Cell (c, r) is viewport (1 + 3c, 1 + 3r), 2x2 pixels: frame columns
# 10 + 12c .. 17 + 12c, rows 14 + 12r .. 21 + 12r. The axis is viewport column 6 (frame 30-33) over
# rows 0-6 (frame 10-37); swatch e is viewport (1 + 3(e - 1), 7), frame columns 10 + 12(e - 1) on
# rows 38-45; the mark is viewport row 9, frame rows 46-49, under the selected swatch.


def _board_cell(frame: np.ndarray, c: int, r: int) -> np.ndarray:
    return frame[14 + 12 * r : 22 + 12 * r, 10 + 12 * c : 18 + 12 * c]


def test_symmetry_draw_first_frame_by_hand() -> None:
    frame = Session(GAMES["symmetry-draw"], MIRROR).frame
    expected = {(0, 0): 8, (1, 0): 3, (2, 0): 2, (3, 0): 2, (0, 1): 9, (1, 1): 9, (2, 1): 2, (3, 1): 9}
    for (c, r), colour in expected.items():
        assert (_board_cell(frame, c, r) == colour).all(), (c, r)
    assert (frame[10:38, 30:34] == 0).all() and (frame[38:42, 30:34] == 5).all()
    assert (frame[38:46, 10:18] == 8).all() and (frame[38:46, 22:30] == 9).all()
    assert (frame[46:50, 10:18] == 0).all() and (frame[46:50, 22:30] == 5).all()
    assert (frame[:10] == 4).all() and (frame[:, :6] == 4).all()


def test_symmetry_draw_clicks_paint_undo_select_and_win() -> None:
    session = Session(GAMES["symmetry-draw"], MIRROR)
    first = session.frame.copy()
    session.step(Move.click(26, 18))  # the fixed half: nothing happens
    assert np.array_equal(session.frame, first)
    session.step(Move.click(38, 18))  # (2, 0) takes the selected red ...
    assert (_board_cell(session.frame, 2, 0) == 8).all()
    session.step(Move.click(38, 18))  # ... and a second click empties it again
    assert np.array_equal(session.frame, first)
    session.step(Move.click(50, 18))  # (3, 0): red, as its mirror
    session.step(Move.click(26, 42))  # select blue: the mark moves under it
    assert (session.frame[46:50, 22:30] == 0).all() and (session.frame[46:50, 10:18] == 5).all()
    assert not session.over
    session.step(Move.click(38, 30))  # (2, 1): blue, and the board mirrors itself
    assert session.won and (_board_cell(session.frame, 2, 1) == 9).all()


def _symmetry_draw_start_and_goal(level: Level) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The player's cells (row-major) and their mirrors' codes, for a vertical axis."""
    width, height = level.width, level.height
    mine = [
        (x, y)
        for y in range(height)
        for x in range(width)
        if (x >= width // 2) == (level.param("locked") == 0)
    ]
    return tuple(level.grid[y][x] for x, y in mine), tuple(level.grid[y][width - 1 - x] for x, y in mine)


def _fewest_clicks_by_the_rules(level: Level) -> int:
    """Breadth-first over every click the rules allow on a small symmetry-draw board (cells, selected).

    With an eraser (the entry after the colours) a click empties the cell whatever it holds.
    """
    hues = [level.param(f"hue{i}") for i in (1, 2, 3) if level.param(f"hue{i}", -1) >= 0]
    eraser = len(hues) + 1 if level.param("eraser", 0) else -1
    cells, goal = _symmetry_draw_start_and_goal(level)
    start = (cells, level.param("selected"))
    seen, frontier, depth = {start}, [start], 0
    while frontier:
        if any(cells == goal for cells, _ in frontier):
            return depth
        nxt = []
        for cells, selected in frontier:
            options = [(cells, entry) for entry in range(1, len(hues) + 1 + (eraser > 0))]
            options += [
                (
                    (
                        *cells[:i],
                        0 if selected in (cells[i], eraser) else selected,
                        *cells[i + 1 :],
                    ),
                    selected,
                )
                for i in range(len(cells))
            ]
            for state in options:
                if state not in seen:
                    seen.add(state)
                    nxt.append(state)
        frontier, depth = nxt, depth + 1
    raise AssertionError("no way to the mirror image")


@pytest.mark.parametrize("eraser", [0, 1])
def test_symmetry_draw_plans_are_the_fewest_clicks(eraser: int) -> None:
    rng = random.Random(7)
    spec = GAMES["symmetry-draw"]
    for _ in range(60):
        rows = [[rng.choice([0, 0, 1, 2, 3]) for _ in range(4)] for _ in range(2)]
        level = Level.make(
            "symmetry-draw",
            rows,
            axis=0,
            locked=rng.randrange(2),
            hue1=8,
            hue2=9,
            hue3=14,
            selected=rng.randint(1, 3 + eraser),
            **({"eraser": 1} if eraser else {}),
        )
        plan = spec.solve(level, spec.budget)
        assert plan is not None
        fewest = _fewest_clicks_by_the_rules(level)
        assert len(plan) == fewest
        start, goal = _symmetry_draw_start_and_goal(level)
        assert cost_to_go(start, goal, level.param("selected"), 4 if eraser else 0) == fewest
        assert not plan or replay(spec, level, plan)


# Both axes: a 4x4 board whose top-left quarter is fixed (locked 0), red in its corner and blue in
# its middle-facing cell; the player's three quarters are empty. Mirrored about both lines the red
# goes to every corner and the blue to the four middle cells: three red and three blue cells to
# paint, and one swatch click between them. By hand: the viewport is 13x17 pixels, scaled by 3 and
# centred at offsets (12, 6); the vertical line is viewport column 6 (frame columns 30-32), the
# horizontal one viewport row 6 (frame rows 24-26).
QUARTERS = Level.make(
    "symmetry-draw",
    [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    axis=2,
    locked=0,
    hue1=8,
    hue2=9,
    selected=1,
)


def test_with_both_axes_three_quarters_copy_the_fixed_one() -> None:
    session = Session(GAMES["symmetry-draw"], QUARTERS)
    frame = session.frame
    assert (frame[6:24, 30:33] == 0).all() and (frame[24:27, 12:30] == 0).all()  # two white lines
    plan = GAMES["symmetry-draw"].solve(QUARTERS, 10_000)
    assert plan is not None and len(plan) == 7
    for move in plan[:-1]:
        session.step(move)
        assert not session.won
    session.step(plan[-1])
    assert session.won


@pytest.mark.parametrize("seed", range(4))
def test_difficulty_two_and_three_mirror_about_both_axes(seed: int) -> None:
    spec = GAMES["symmetry-draw"]
    for difficulty in (1, 2, 3):
        level, plan = draw_level(spec, ("both", seed), difficulty)
        assert (level.param("axis") == 2) == (difficulty >= 2)
        session = Session(spec, level)
        for move in plan:
            session.step(move)
        assert session.won
        if difficulty >= 2:  # the won board mirrors itself both ways, read off its cells' codes
            frame = session.frame
            width, height = level.width, level.height
            scale = min(64 // (3 * width + 1), 64 // (3 * height + 5))
            left, top = (64 - scale * (3 * width + 1)) // 2, (64 - scale * (3 * height + 5)) // 2
            shown = [
                [int(frame[top + scale * (1 + 3 * y), left + scale * (1 + 3 * x)]) for x in range(width)]
                for y in range(height)
            ]
            painted = [[0 if v in (2, 3) else v for v in row] for row in shown]
            assert painted == painted[::-1] and painted == [row[::-1] for row in painted]


# A 4x2 board, the left half fixed (red over blue), with a yellow third colour and an eraser (entry
# 4); red is selected. The right half lacks a red cell at (3, 0) and must lose a yellow one at (2, 0)
# and a blue one at (2, 1). Without the eraser: paint the red (1), then each of the two others takes
# two clicks (select its colour and click, or paint it and click again): 5. With it: 1 + 1 + 2 = 4.
ERASING = Level.make(
    "symmetry-draw",
    [[1, 0, 3, 0], [2, 0, 2, 2]],
    axis=0,
    locked=0,
    hue1=8,
    hue2=9,
    hue3=11,
    selected=1,
    eraser=1,
)


def test_the_eraser_empties_any_cell_and_saves_a_click() -> None:
    spec = GAMES["symmetry-draw"]
    plain = Level.make(
        spec.id, [list(row) for row in ERASING.grid], **{k: v for k, v in ERASING.params if k != "eraser"}
    )
    plan, without = spec.solve(ERASING, spec.budget), spec.solve(plain, spec.budget)
    assert plan is not None and without is not None and (len(plan), len(without)) == (4, 5)
    assert _fewest_clicks_by_the_rules(ERASING) == 4 and _fewest_clicks_by_the_rules(plain) == 5
    session = Session(spec, ERASING)
    frame = session.frame
    assert (frame[38:46, 46:50] == 0).any() and (frame[38:46, 46:54] == 2).any()  # the checked swatch
    session.step(Move.click(48, 40))  # the eraser
    session.step(Move.click(*_cell_middle(2, 0)))
    assert (_board_cell(session.frame, 2, 0) == 2).all()  # yellow emptied, red never selected
    session.step(Move.click(*_cell_middle(2, 0)))
    assert (_board_cell(session.frame, 2, 0) == 2).all()  # an empty cell stays empty
    assert replay(spec, ERASING, plan)


def _cell_middle(c: int, r: int) -> tuple[int, int]:
    return 14 + 12 * c, 18 + 12 * r


@pytest.mark.parametrize("seed", range(4))
def test_at_difficulty_three_an_eraser_saves_a_click(seed: int) -> None:
    spec = GAMES["symmetry-draw"]
    for difficulty in (2, 3):
        level, plan = draw_level(spec, ("eraser", seed), difficulty)
        assert level.param("eraser", 0) == (difficulty == 3)
        if difficulty == 3:
            plain = Level.make(
                spec.id, [list(row) for row in level.grid], **{k: v for k, v in level.params if k != "eraser"}
            )
            without = spec.solve(plain, spec.budget)
            assert without is not None and len(plan) < len(without)
        session = Session(spec, level)
        for move in plan:
            session.step(move)
        assert session.won
