"""Tab mirrors: a shape reflected across the sides of its box that cells of another colour touch."""

from __future__ import annotations

from dsl_rig import digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]

TABBED: Cells = [
    [0, 0, 0, 0, 0, 0],
    [0, 4, 4, 2, 0, 0],
    [0, 0, 4, 2, 0, 0],
    [0, 0, 0, 0, 0, 0],
]
"""A shape of 4 with a tab of 2 on its right."""


def test_tabmirror_is_added_to_wide() -> None:
    for how in ("own", "mark"):
        assert f"tabmirror({how})" in WIDE.by_text
        assert f"tabmirror({how})" not in CORE.by_text


def test_the_shape_mirrors_across_its_tab_in_its_own_colour() -> None:
    assert step_on("tabmirror(own)", TABBED) == [
        [0, 0, 0, 0, 0, 0],
        [0, 4, 4, 4, 4, 0],
        [0, 0, 4, 4, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]


def test_the_copy_takes_the_mark_colour() -> None:
    assert step_on("tabmirror(mark)", TABBED) == [
        [0, 0, 0, 0, 0, 0],
        [0, 4, 4, 2, 2, 0],
        [0, 0, 4, 2, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]


def test_a_corner_mark_turns_the_shape_half_about_the_corner() -> None:
    grid: Cells = [
        [0, 0, 0, 0, 0, 0],
        [0, 4, 4, 0, 0, 0],
        [0, 0, 4, 0, 0, 0],
        [0, 0, 0, 7, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    assert step_on("tabmirror(mark)", grid) == [
        [0, 0, 0, 0, 0, 0],
        [0, 4, 4, 0, 0, 0],
        [0, 0, 4, 0, 0, 0],
        [0, 0, 0, 7, 0, 0],
        [0, 0, 0, 7, 7, 0],
    ]


def test_a_mark_inside_the_box_or_no_mark_does_not_apply() -> None:
    inside: Cells = [[0, 0, 0, 0, 0], [0, 4, 2, 4, 0], [0, 4, 4, 4, 0], [0, 0, 0, 0, 0]]
    assert step_on("tabmirror(own)", inside) is None
    plain: Cells = [[0, 0, 0, 0], [0, 4, 4, 0], [0, 0, 0, 0]]
    assert step_on("tabmirror(own)", plain) is None


def test_the_search_mirrors_tabbed_shapes() -> None:
    train = [
        (digits("000000", "044200", "004200", "000000"), digits("000000", "044440", "004400", "000000")),
        (
            digits("000000", "066000", "003000", "000000", "000000"),
            digits("000000", "066000", "066000", "000000", "000000"),
        ),
    ]
    test_in = digits("00000", "00000", "08800", "00900", "00000")
    result = search(train, test_in, catalogue=WIDE)
    assert result.candidates
    assert result.candidates[0].prediction == digits("00000", "00000", "08800", "08800", "00000")
