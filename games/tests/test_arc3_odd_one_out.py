"""odd-one-out: a player comparing every likeness of the shapes, and a hand-made level worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import level_rng
from continual_arc_games.odd_one_out import odd_one
from continual_arc_games.session import Session
from frame_blobs import find_blobs, middle_of
from test_arc3_players import Cell, _cell_size, _session


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
        blobs = _items([blob for colour in range(6, 16) for blob in find_blobs(session.frame, colour)])
        looks = [{**_looks(blob, session.frame), "count": count} for blob, count in blobs]
        odd = set()
        for feature in ("colour", "size", "form", "pose", "count"):
            values = [look[feature] for look in looks]
            lone = [i for i, v in enumerate(values) if values.count(v) == 1]
            if len(set(map(repr, values))) == 2 and len(lone) == 1:
                odd.add(lone[0])
        assert len(odd) == 1, "the shapes should leave exactly one odd one"
        session.step(Move.click(*middle_of(blobs[odd.pop()][0])))
    assert session.won


def _items(blobs: list[list[Cell]]) -> list[tuple[list[Cell], int]]:
    """The shapes as a person counts them, each with how many times it is shown.

    Two blobs side by side on one top row, a gap of one viewport pixel (2 frame pixels) apart, are
    one shape shown twice; shapes in different slots stand further off.
    """
    items: list[tuple[list[Cell], int]] = []
    taken: set[int] = set()
    for i, blob in enumerate(blobs):
        if i in taken:
            continue
        right = max(x for x, _ in blob)
        twin = next(
            (
                j
                for j, other in enumerate(blobs)
                if j not in taken
                and j != i
                and min(y for _, y in other) == min(y for _, y in blob)
                and 0 < min(x for x, _ in other) - right <= 3
            ),
            None,
        )
        if twin is not None:
            taken.add(twin)
        items.append((blob, 2 if twin is not None else 1))
    return items


# odd-one-out rows: [round, slot, form, hue, size, turn]. Round 0: two red T's (form 0, hue 0) and a
# blue one (hue 1) in slots 0, 4 and 8; round 1: three small blue L's (form 1) and a large one.
ODD = Level.make(
    "odd-one-out",
    [
        [0, 0, 0, 0, 1, 0],
        [0, 4, 0, 0, 1, 0],
        [0, 8, 0, 1, 1, 0],
        [1, 1, 1, 1, 1, 0],
        [1, 3, 1, 1, 1, 0],
        [1, 5, 1, 1, 2, 0],
        [1, 7, 1, 1, 1, 0],
    ],
)
# By hand: the viewport is 24 x 27 pixels (a 3-pixel strip over a 3x3 board of 8-pixel slots),
# scaled by min(64 // 24, 64 // 27) = 2 at offsets (8, 5): viewport (vx, vy) is frame (8 + 2 vx,
# 5 + 2 vy). A small T is 3 x 2 pixels, centred in its slot at (+2, +3): slot 0's bar covers viewport
# (2-4, 6), frame columns 12-17 and rows 17-18, and its stem viewport (3, 7), frame (14-15, 19-20).
# Round k's mark is viewport (1 + 3k .. 2 + 3k, 1), frame columns 10 + 6k .. 13 + 6k, rows 7-8.


def test_odd_one_out_first_frame_by_hand_and_a_wrong_click_loses() -> None:
    session = Session(GAMES["odd-one-out"], ODD)
    frame = session.frame
    assert (frame[17:19, 12:18] == 8).all() and (frame[19:21, 14:16] == 8).all()
    assert (frame[19:21, 12:14] == 5).all() and (frame[19:21, 16:18] == 5).all()
    assert (frame[17 + 16 : 19 + 16, 12 + 16 : 18 + 16] == 8).all()  # slot 4, one slot down and right
    assert (frame[17 + 32 : 19 + 32, 12 + 32 : 18 + 32] == 9).all()  # slot 8, the blue one
    assert (
        (frame[7:9, 10:14] == 3).all() and (frame[7:9, 16:20] == 3).all() and (frame[7:9, 22:26] == 5).all()
    )
    assert int((frame == 8).sum()) == 2 * 16 and int((frame == 9).sum()) == 16
    session.step(Move.click(12 + 32 + 8, 17 + 8))  # slot 2: empty, nothing happens
    assert np.array_equal(session.frame, frame) and not session.over
    session.step(Move.click(16, 18))  # slot 0: a red T, not the odd one
    assert session.lost and (session.frame[7:9, 10:14] == 8).all()


def test_odd_one_out_right_clicks_show_the_next_round_then_win() -> None:
    session = Session(GAMES["odd-one-out"], ODD)
    session.step(Move.click(50, 52))  # slot 8, anywhere in its square
    frame = session.frame
    assert (frame[7:9, 10:14] == 0).all() and (frame[7:9, 16:20] == 3).all() and not session.over
    assert int((frame == 8).sum()) == 0 and int((frame == 9).sum()) == 3 * 16 + 64  # three small L's, a large
    session.step(Move.click(8 + 32 + 6, 5 + 22 + 6))  # slot 5 (row 1, column 2): the large L
    assert session.won and (session.frame[7:9, 16:20] == 0).all()


def test_a_pair_among_single_shapes_is_the_odd_one_and_drawn_twice() -> None:
    # Four red T shapes, unturned, small; the third is a pair (size 3). Rows: round, slot, form,
    # hue, size, turn.
    rows = [[0, 0, 0, 0, 1, 0], [0, 2, 0, 0, 1, 0], [0, 4, 0, 0, 3, 0], [0, 8, 0, 0, 1, 0]]
    level = Level.make("odd-one-out", rows)
    items = [(0, slot, 0, 0, size, 0) for _, slot, _, _, size, _ in rows]
    assert odd_one(items) == 2
    session = Session(GAMES["odd-one-out"], level)
    frame = session.frame
    # By hand: the viewport is 24x27 pixels (8-pixel slots on a 3x3 board below a 3-pixel strip),
    # scaled by min(64 // 24, 64 // 27) = 2 and centred at offsets (8, 5); the middle slot (4) is
    # viewport columns 8-15 and rows 11-18, frame columns 24-39 and rows 27-42. The T is 3 pixels
    # wide and 4 cells; its pair spans 3 + 1 + 3 pixels and holds twice the red.
    middle = np.argwhere(frame[27:43, 24:40] == 8)
    assert int(middle[:, 1].max() - middle[:, 1].min()) + 1 == 7 * 2
    assert len(middle) == 2 * 4 * 2 * 2
    corner = np.argwhere(frame[11:27, 8:24] == 8)  # slot 0: a single T
    assert int(corner[:, 1].max() - corner[:, 1].min()) + 1 == 3 * 2 and len(corner) == 4 * 2 * 2
    plan = GAMES["odd-one-out"].solve(level, 100)
    assert plan is not None and len(plan) == 1
    session.step(plan[0])
    assert session.won


@pytest.mark.parametrize("difficulty", range(4))
def test_only_difficulty_three_shows_pairs_and_a_pair_is_always_the_odd_one(difficulty: int) -> None:
    pairs = 0
    for seed in range(12):
        level = GAMES["odd-one-out"].generate(
            level_rng("odd-one-out", difficulty, ("pairs", seed), 0), difficulty
        )
        rounds: dict[int, list[tuple[int, ...]]] = {}
        for row in level.grid:
            rounds.setdefault(row[0], []).append(tuple(row))
        for items in rounds.values():
            paired = [i for i, item in enumerate(items) if item[4] == 3]
            if paired:
                pairs += 1
                assert len(paired) == 1 and all(
                    item[4] == 1 for i, item in enumerate(items) if i != paired[0]
                )
    assert (pairs > 0) == (difficulty == 3)
