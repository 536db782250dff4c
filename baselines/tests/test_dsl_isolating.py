"""Isolating: the cell of the once-seen colour kept alone, ringed in a fixed colour."""

from __future__ import annotations

import numpy as np
from dsl_rig import digits

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = list[list[int]]


def _run(text: str, cells: Cells) -> Cells | None:
    op = lookup(text)
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


def test_lone_is_added_to_wide() -> None:
    for ring in range(10):
        assert f"lone({ring})" in WIDE.by_text
        assert f"lone({ring})" not in CORE.by_text


def test_the_once_seen_colour_is_kept_and_ringed() -> None:
    # 3 and 4 occur twice each, 6 once: only 6 stays, ringed in 2.
    grid: Cells = [
        [3, 0, 0, 0, 4],
        [0, 0, 0, 0, 0],
        [0, 0, 6, 0, 0],
        [0, 0, 0, 0, 0],
        [3, 0, 0, 4, 0],
    ]
    assert _run("lone(2)", grid) == [
        [0, 0, 0, 0, 0],
        [0, 2, 2, 2, 0],
        [0, 2, 6, 2, 0],
        [0, 2, 2, 2, 0],
        [0, 0, 0, 0, 0],
    ]


def test_the_ring_is_cut_at_the_border() -> None:
    grid: Cells = [
        [7, 0, 0, 5],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [5, 0, 0, 0],
    ]
    assert _run("lone(1)", grid) == [
        [7, 1, 0, 0],
        [1, 1, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    ]


def test_no_or_two_once_seen_colours_do_not_apply() -> None:
    assert _run("lone(2)", [[3, 0, 0], [0, 0, 0], [0, 0, 3]]) is None
    assert _run("lone(2)", [[3, 0, 0], [0, 0, 0], [0, 0, 4]]) is None


def test_the_search_finds_lone() -> None:
    train = [
        (
            digits("10001", "00000", "00300", "00000", "00000"),
            digits("00000", "02220", "02320", "02220", "00000"),
        ),
        (
            digits("40000", "00000", "00000", "00050", "40000"),
            digits("00000", "00000", "00222", "00252", "00222"),
        ),
    ]
    test_in = digits("00000", "08000", "00000", "00009", "00009")
    result = search(train, test_in, catalogue=WIDE)
    assert result.candidates
    assert result.candidates[0].prediction == digits("22200", "28200", "22200", "00000", "00000")
