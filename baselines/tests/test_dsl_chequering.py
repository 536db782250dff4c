"""Chequered floods: the paths joined to a two-coloured seed take its alternating colours."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


MAZE: Cells = [
    [5, 5, 5, 5, 5],
    [5, 2, 3, 0, 5],
    [5, 5, 5, 0, 5],
    [5, 0, 0, 0, 5],
    [5, 0, 5, 5, 5],
    [5, 5, 5, 0, 5],
]
"""Walls of 5 (the commonest colour), paths of 0, the seed 2 (even square) and 3 (odd square)."""


def test_chequer_is_added_to_wide() -> None:
    for medium in ("bg", "other"):
        assert f"chequer({medium})" in WIDE.by_text
        assert f"chequer({medium})" not in CORE.by_text


def test_the_path_from_the_seed_alternates_and_a_cut_off_path_stays() -> None:
    assert step_on("chequer(other)", MAZE) == [
        [5, 5, 5, 5, 5],
        [5, 2, 3, 2, 5],
        [5, 5, 5, 3, 5],
        [5, 2, 3, 2, 5],
        [5, 3, 5, 5, 5],
        [5, 5, 5, 0, 5],
    ]


def test_the_background_as_medium_floods_the_background() -> None:
    # With paths of the background colour the flood runs through the background.
    grid: Cells = [
        [0, 0, 0, 0],
        [0, 6, 6, 0],
        [2, 3, 6, 0],
        [6, 6, 6, 0],
    ]
    assert step_on("chequer(bg)", grid) == [
        [2, 3, 2, 3],
        [3, 6, 6, 2],
        [2, 3, 6, 3],
        [6, 6, 6, 2],
    ]


def test_two_seeds_or_none_do_not_apply() -> None:
    two = [row[:] for row in MAZE]
    two[3][1] = 8  # 8 on an even square touching 7 on an odd one: a second seed
    two[4][1] = 7
    assert step_on("chequer(other)", two) is None
    assert step_on("chequer(other)", [[5, 5, 5], [5, 0, 5], [5, 5, 5]]) is None
