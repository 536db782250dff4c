"""Completing: each fragment of the template object grows back into a whole (turned) copy of it."""

from __future__ import annotations

import numpy as np

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import WIDE, lookup


def _run(text: str, rows: list[str]) -> list[str] | None:
    """The step named ``text`` on a grid drawn as rows of digits ('.' is 0)."""
    grid = np.array([[0 if c == "." else int(c) for c in row] for row in rows], dtype=np.uint8)
    op = lookup(text)
    assert op is not None
    out = op(grid, Context(grid))
    if out is None:
        return None
    return ["".join("." if v == 0 else str(int(v)) for v in row) for row in out.tolist()]


# The template: a bar of 4s with a 2 stud at its right end and a 3 stud above its left end.
TEMPLATE = [
    "3.......",
    "442.....",
]


def test_registered_in_next_only() -> None:
    """The members are steps of ``wide``."""
    texts = {op.text for op in WIDE.ops}
    assert {"complete(fixed,4)", "complete(turn,8)", "complete(grow,4)", "complete(grow,8)"} <= texts


def test_fixed_fragment_grows_in_place() -> None:
    """A fragment '4 2' (bar end and stud) fits the template only one way: the 4 and 3 are added."""
    given = [
        "3.......",
        "442.....",
        "........",
        "........",
        ".....42.",
        "........",
    ]
    wanted = [
        "3.......",
        "442.....",
        "........",
        "....3...",
        "....442.",
        "........",
    ]
    assert _run("complete(fixed,4)", given) == wanted


def test_turned_fragment_follows_its_stud() -> None:
    """A fragment '2 over 4' fits two variants: the 3 left or right of the bar's far end.

    The bar runs down from the 2 in both, and a turn and its reflection put the 3 on either side:
    the grid does not say which, so the step does not apply.
    """
    given = [
        "3.......",
        "442.....",
        "........",
        ".....2..",
        ".....4..",
        "........",
        "........",
    ]
    assert _run("complete(turn,4)", given) is None


def test_turned_fragment_with_both_studs() -> None:
    """A fragment holding both studs fixes the turn; lone studs and whole copies do not apply."""
    given = [
        "3.......",
        "442.....",
        "........",
        "........",
        ".....2..",
        "........",
        ".....43.",
        "........",
    ]
    # The fragment is the 2 alone and the '43' pair: not one object. Under 8-connectivity they
    # still are not connected (a gap row), so each is its own fragment; the lone 2 fits several
    # turns and makes the grid ambiguous.
    assert _run("complete(turn,8)", given) is None
    joined = [
        "3.......",
        "442.....",
        "........",
        "........",
        ".....2..",
        ".....4..",
        ".....43.",
        "........",
    ]
    # Whole already except nothing: a full copy changes nothing, so the step does not apply.
    assert _run("complete(turn,4)", joined) is None
    partial = [
        "3.......",
        "442.....",
        "........",
        "........",
        ".....2..",
        ".....4..",
        "......3.",
        "........",
    ]
    # '2 over 4' with the 3 diagonal below-right: one turn (bar down, stud right) fits under
    # 8-connectivity, and the missing bottom 4 at (6, 5) is painted.
    completed = [
        "3.......",
        "442.....",
        "........",
        "........",
        ".....2..",
        ".....4..",
        ".....43.",
        "........",
    ]
    assert _run("complete(turn,8)", partial) == completed


def test_no_template_no_step() -> None:
    """A grid of one-colour objects has no template: the step does not apply."""
    given = [
        "44......",
        "........",
        "....4...",
    ]
    assert _run("complete(fixed,4)", given) is None


def test_grown_fragment_is_recoloured_and_scaled() -> None:
    """A bar of 1s with a 2 stud; elsewhere the stud and the bar's middle twice as large, in 5.

    The fragment (a 2x2 of 5 beside a 2x2 of 2) fits the template scaled by 2 with 1 read as 5
    and 2 kept, one way only: the bar's two missing ends, 2x2s of 5 above and below, are painted.
    """
    given = [
        "1.......",
        "12......",
        "1.......",
        "........",
        "..5522..",
        "..5522..",
        "........",
        "........",
    ]
    wanted = [
        "1.......",
        "12......",
        "1.55....",
        "..55....",
        "..5522..",
        "..5522..",
        "..55....",
        "..55....",
    ]
    assert _run("complete(grow,4)", given) == wanted


def test_grown_fragment_needs_a_kept_colour() -> None:
    """A fragment sharing no colour with the template is no copy of it: nothing applies."""
    given = [
        "1.......",
        "12......",
        "1.......",
        "........",
        "..5533..",
        "..5533..",
        "........",
        "........",
    ]
    assert _run("complete(grow,4)", given) is None
