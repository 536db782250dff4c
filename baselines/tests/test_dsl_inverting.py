"""Inverting: the two colours of a two-coloured grid exchanged."""

from __future__ import annotations

import numpy as np

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = list[list[int]]


def _run(text: str, cells: Cells) -> list[list[int]] | None:
    op = lookup(text)
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


def test_invert_is_wide_not_core() -> None:
    assert "invert" in WIDE.by_text
    assert "invert" not in CORE.by_text


def test_invert_exchanges_figure_and_ground() -> None:
    assert _run("invert", [[5, 4, 5], [4, 4, 4], [5, 4, 5]]) == [[4, 5, 4], [5, 5, 5], [4, 5, 4]]


def test_invert_needs_exactly_two_colours() -> None:
    assert _run("invert", [[1, 1], [1, 1]]) is None
    assert _run("invert", [[1, 2], [3, 1]]) is None
