"""Rays that step aside: around obstacles (``detour``) or past markers on the edges (``jog``)."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.detouring import fit_detour, fit_jog
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup


def test_a_ray_steps_right_round_an_obstacle() -> None:
    # A red ray rises from the bottom edge; below the grey cell it steps one to the right.
    demo = (
        digits("00000", "00000", "05000", "00000", "00000", "02000"),
        digits("00200", "00200", "05200", "02200", "02000", "02000"),
    )
    given = fit_input([demo], digits("00000", "00050", "00000", "00000", "00000", "00020"))
    ops = fit_detour(given)
    assert ops and ops[0].text == "detour(u,-){2}"
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 0, 2],
            [0, 0, 0, 5, 2],
            [0, 0, 0, 2, 2],
            [0, 0, 0, 2, 0],
            [0, 0, 0, 2, 0],
            [0, 0, 0, 2, 0],
        ],
    )


def test_no_source_no_detour() -> None:
    op = lookup("detour(u,-){2}")
    grid = cells([[0, 2, 0], [0, 0, 0], [0, 5, 0]])  # the red cell is on the top edge, not the bottom
    assert op is not None and op(grid, Context(grid)) is None


def test_rays_jog_away_from_each_marker_they_pass() -> None:
    demos = [
        (
            digits("08000", "00000", "00000", "20000", "00000", "00000"),
            digits("08000", "08000", "08000", "20800", "00800", "00800"),
        ),
        # Shot from the left edge this time; a marker on the bottom edge lifts the ray by one.
        (
            digits("00000", "80000", "00000", "00000", "00200"),
            digits("00888", "88000", "00000", "00000", "00200"),
        ),
    ]
    given = fit_input(demos, digits("00080", "00000", "00002", "00000", "00000"))
    ops = fit_jog(given)
    assert [op.text for op in ops] == ["jog(a){8}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 8, 0],
            [0, 0, 0, 8, 0],
            [0, 0, 8, 0, 2],
            [0, 0, 8, 0, 0],
            [0, 0, 8, 0, 0],
        ],
    )


def test_no_marker_no_jog() -> None:
    op = lookup("jog(d){8}")
    grid = cells([[0, 8, 0], [0, 0, 0], [0, 0, 0]])
    assert op is not None and op(grid, Context(grid)) is None
    assert lookup("jog(x){8}") is None


def test_the_source_edge_and_colour_may_change_between_grids() -> None:
    # Green rays shot rightwards, then yellow ones upwards: each turns clockwise round an obstacle.
    demos = [
        (
            digits("00000", "00000", "30050", "00000", "00000"),
            digits("00000", "00000", "33350", "00333", "00000"),
        ),
        (
            digits("00000", "06000", "00000", "00000", "04000"),
            digits("00400", "06400", "04400", "04000", "04000"),
        ),
    ]
    given = fit_input(demos, digits("00070", "00000", "00000", "00060", "00000"))
    ops = fit_detour(given)
    assert [op.text for op in ops] == ["detour(a,-){*}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 7, 0],
            [0, 0, 0, 7, 0],
            [0, 0, 7, 7, 0],
            [0, 0, 7, 6, 0],
            [0, 0, 7, 0, 0],
        ],
    )
    # Foreground on two edges: no way to tell which one shoots.
    two = cells([[0, 7, 0], [0, 0, 0], [0, 7, 0]])
    op = lookup("detour(a,-){*}")
    assert op is not None and op(two, Context(two)) is None
    assert lookup("detour(u,-){*}") is None
