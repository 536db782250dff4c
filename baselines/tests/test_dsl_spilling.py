"""Spilling: a container with a gap fills up and pours a stream out of its gap."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.spilling import fit_spill

# A grey cup open at the bottom, then one open at the top: both fill azure and pour straight out.
_BEAM = [
    (
        digits("00000", "05550", "05050", "05050", "05050", "00000"),
        digits("00000", "05550", "05850", "05850", "05850", "00800"),
    ),
    (
        digits("0000", "0000", "5050", "5050", "5550", "0000"),
        digits("0800", "0800", "5850", "5850", "5550", "0000"),
    ),
]


def test_a_cup_fills_and_pours_a_beam_out_of_its_gap() -> None:
    # Open on its right side: the beam runs right to the grid's edge.
    given = fit_input(_BEAM, digits("000000", "555000", "500000", "555000", "000000"))
    ops = fit_spill(given)
    assert [op.text for op in ops] == ["spill(beam){8}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 0, 0, 0],
            [5, 5, 5, 0, 0, 0],
            [5, 8, 8, 8, 8, 8],
            [5, 5, 5, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
    )


def test_a_fan_adds_two_spreading_diagonals() -> None:
    demo = (
        digits("0000000", "0000000", "0660660", "0600060", "0666660"),
        digits("0404040", "0044400", "0664660", "0644460", "0666660"),
    )
    given = fit_input([demo], digits("00000", "00666", "00006", "00666", "00000"))
    ops = fit_spill(given)
    assert [op.text for op in ops] == ["spill(fan){4}"]
    check_fitted(
        ops[0],
        given,
        [
            [4, 0, 0, 0, 0],
            [0, 4, 6, 6, 6],
            [4, 4, 4, 4, 6],
            [0, 4, 6, 6, 6],
            [4, 0, 0, 0, 0],
        ],
    )


def test_a_closed_box_or_a_repainted_wall_is_not_a_spill() -> None:
    closed = cells([[5, 5, 5], [5, 0, 5], [5, 5, 5]])
    assert lookup("spill(beam){8}") is not None
    op = lookup("spill(beam){8}")
    assert op is not None and op(closed, Context(closed)) is None
    # The demonstration repaints a wall cell too: no spill explains that.
    demo = (_BEAM[0][0], digits("00000", "05550", "05850", "05850", "08850", "00800"))
    assert fit_spill(fit_input([demo], _BEAM[1][0])) == []
    assert lookup("spill(pour){8}") is None


def test_each_cup_drops_a_mark_on_the_edge_it_faces() -> None:
    # Magenta cups open downwards: a yellow mark on the bottom edge under each opening.
    demo = (
        digits("0666000", "0606000", "0000666", "0000606", "0000000", "0000000"),
        digits("0666000", "0606000", "0000666", "0000606", "0000000", "0040040"),
    )
    # A cup opening to the left this time, and one whose way down is blocked by a grey cell.
    test = digits("000000", "000660", "000060", "000660", "666000", "606000", "050000")
    given = fit_input([demo], test)
    ops = fit_spill(given)
    assert [op.text for op in ops] == ["spill(drop){4}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 6, 6, 0],
            [4, 0, 0, 0, 6, 0],
            [0, 0, 0, 6, 6, 0],
            [6, 6, 6, 0, 0, 0],
            [6, 0, 6, 0, 0, 0],
            [0, 5, 0, 0, 0, 0],
        ],
    )
