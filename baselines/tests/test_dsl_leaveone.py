"""The ``leaveone`` feature: one demonstration drawn wrong no longer hides a rule the rest show."""

from __future__ import annotations

import random

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import NEXT, WIDE
from continual_arc_baselines.dsl.search import LEAVE_ONE, NEAR


def _grid(rng: random.Random, h: int, w: int) -> Grid:
    return tuple(tuple(rng.choice((0, 0, 1, 2, 3)) for _ in range(w)) for _ in range(h))


def _transpose(grid: Grid) -> Grid:
    return tuple(zip(*grid, strict=True))


def _spoil(grid: Grid, cells: int) -> Grid:
    """``grid`` with its first ``cells`` cells (in reading order) set to colour 9."""
    flat = [c for row in grid for c in row]
    flat[:cells] = [9] * cells
    w = len(grid[0])
    return tuple(tuple(flat[i : i + w]) for i in range(0, len(flat), w))


def _task(seed: int, spoiled: int, cells: int) -> tuple[list[Pair], Grid, Grid]:
    """Four transposition demonstrations, the one at ``spoiled`` with ``cells`` wrong cells; a test."""
    rng = random.Random(seed)
    grids = [_grid(rng, 4, 6) for _ in range(5)]
    demos = [(g, _transpose(g)) for g in grids[:4]]
    given, wanted = demos[spoiled]
    demos[spoiled] = (given, _spoil(wanted, cells))
    return demos, grids[4], _transpose(grids[4])


def test_next_has_the_feature_and_wide_has_not() -> None:
    assert LEAVE_ONE in NEXT.features
    assert LEAVE_ONE not in WIDE.features


def test_a_demonstration_that_changes_size_must_be_matched_exactly() -> None:
    # A 4x6 grid transposed is 6x4: one wrong cell of such a demonstration is too many.
    demos, test_input, _ = _task(1, spoiled=2, cells=1)
    assert not search(demos, test_input, catalogue=WIDE).candidates
    assert not search(demos, test_input, catalogue=NEXT).candidates


def _recolour(grid: Grid) -> Grid:
    return tuple(tuple({1: 4, 2: 5}.get(c, c) for c in row) for row in grid)


def _recolour_task(seed: int, spoiled: int | None, cells: int, n: int = 4) -> tuple[list[Pair], Grid, Grid]:
    rng = random.Random(seed)
    grids = [_grid(rng, 5, 5) for _ in range(n + 1)]
    demos = [(g, _recolour(g)) for g in grids[:n]]
    if spoiled is not None:
        given, wanted = demos[spoiled]
        demos[spoiled] = (given, _spoil(wanted, cells))
    return demos, grids[n], _recolour(grids[n])


def _changed(pair: Pair) -> int:
    given, wanted = pair
    cells = zip(sum(given, ()), sum(wanted, ()), strict=True)
    return sum(a != b for a, b in cells)


def test_a_recolouring_answers_past_one_cell_drawn_wrong() -> None:
    demos, test_input, answer = _recolour_task(3, spoiled=1, cells=1)
    assert not search(demos, test_input, catalogue=WIDE).candidates
    result = search(demos, test_input, catalogue=NEXT)
    assert result.left_out == 1
    assert result.candidates[0].prediction == answer
    # The fallback spends at most the budget again, in four equal shares.
    assert result.applications <= 2 * 1800


def test_a_demonstration_far_off_is_not_left_out() -> None:
    # Spoiled cells are wrong, and count as changed too: with c cells changed by the rule and s
    # spoiled, the fallback needs NEAR * s <= c + s, which fails once s > c / (NEAR - 1).
    demos, test_input, _ = _recolour_task(3, spoiled=1, cells=0)
    far = _changed(demos[1]) // (NEAR - 1) + 1
    demos, test_input, _ = _recolour_task(3, spoiled=1, cells=far)
    result = search(demos, test_input, catalogue=NEXT)
    assert result.left_out is None
    assert not result.candidates


def test_two_demonstrations_are_too_few_to_leave_one_out() -> None:
    demos, test_input, _ = _recolour_task(5, spoiled=1, cells=1, n=2)
    result = search(demos, test_input, catalogue=NEXT)
    assert not result.candidates
    assert result.left_out is None


def test_a_full_fit_is_never_marked_left_out() -> None:
    demos, test_input, answer = _recolour_task(7, spoiled=None, cells=0)
    result = search(demos, test_input, catalogue=NEXT)
    assert result.left_out is None
    assert result.candidates[0].prediction == answer
