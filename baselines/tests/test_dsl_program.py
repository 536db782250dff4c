"""Program text: parsing, printing, JSON, and execution that never raises on a valid grid."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.grids import Grid, validate_grid
from continual_arc_baselines.dsl import Program, ProgramError, execute, parse
from continual_arc_baselines.dsl.colours import ROLES, fit_map
from continual_arc_baselines.dsl.grid import to_array
from continual_arc_baselines.dsl.ops import WIDE

OP_TEXTS = [op.text for op in WIDE.ops]  # every catalogue's fixed steps: wide holds core's

keys = st.sampled_from([*ROLES, *(str(v) for v in range(16))])
values = st.sampled_from([*ROLES, *(str(v) for v in range(10))])
maps = st.lists(st.tuples(keys, values), min_size=1, max_size=4).map(
    lambda entries: "map(" + ",".join(f"{k}>{v}" for k, v in entries) + ")"
)
steps = st.lists(st.sampled_from(OP_TEXTS), min_size=0, max_size=3)
programs = st.builds(
    lambda zero, body, tail: " | ".join([*(["bg0"] if zero else []), *body, *([tail] if tail else [])]),
    st.booleans(),
    steps,
    st.one_of(st.none(), maps),
).filter(bool)
grids = st.integers(1, 12).flatmap(
    lambda h: st.integers(1, 12).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, 9), min_size=w, max_size=w), min_size=h, max_size=h)
    )
)


@given(programs)
@settings(max_examples=200, deadline=None)
def test_parse_print_round_trip(text: str) -> None:
    program = parse(text)
    assert parse(program.text) == program
    assert parse(program.text.replace(" ", "")) == program
    assert Program.from_json(program.to_json()) == program
    assert program.cost >= 1


def test_canonical_text_and_cost() -> None:
    program = parse("  pick( 8 , big )|rot90|  map(c1>c2, 11>3) ")
    assert program.text == "pick(8,big) | rot90 | map(c1>c2,11>3)"
    assert program.cost == 2 + 2 + 1 + 2  # pick, rot90, a role entry, a literal entry


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "rot91",
        "pick(9,big)",
        "pick(8)",
        "map()",
        "map(c1)",
        "map(c1>10)",
        "map(cq>1)",
        "rot90 |",
        "|",
    ],
)
def test_malformed_text_raises(text: str) -> None:
    with pytest.raises(ProgramError):
        parse(text)


def test_window_takes_fitted_sizes() -> None:
    assert parse("window(br){2,3}").text == "window(br){2,3}"
    assert execute(parse("window(br){1,2}"), ((1, 2, 3), (4, 5, 6))) == ((5, 6),)
    for bad in (
        "window(xx){2,3}",
        "window(tl){0,3}",
        "window(tl){31,3}",
        "window(tl){02,3}",
        "window(br,2,3)",
    ):
        with pytest.raises(ProgramError):
            parse(bad)


def test_from_json_needs_text() -> None:
    with pytest.raises(ProgramError):
        Program.from_json({"cost": 3})


@given(programs, grids)
@settings(max_examples=300, deadline=None)
def test_execute_never_raises(text: str, rows: list[list[int]]) -> None:
    grid = validate_grid(rows)
    out = execute(parse(text), grid)
    if out is not None:
        assert validate_grid(out) == out


def _edge_grids() -> list[Grid]:
    rng = random.Random(7)
    noise = [[rng.randrange(10) for _ in range(30)] for _ in range(30)]
    sparse = [[rng.choice([0, 0, 0, 0, 3, 4]) for _ in range(30)] for _ in range(30)]
    return [
        validate_grid(g)
        for g in (
            [[0]],
            [[5]],
            [[1, 2, 3]],
            [[1], [2], [3]],
            [[7] * 30] * 30,
            noise,
            sparse,
            [[0, 5, 0], [5, 5, 5], [0, 5, 0]],
        )
    ]


@pytest.mark.parametrize("text", OP_TEXTS)
def test_every_primitive_runs_on_edge_grids(text: str) -> None:
    for grid in _edge_grids():
        for program in (parse(text), parse(f"{text} | map(10>0,11>1)")):
            out = execute(program, grid)
            if out is not None:
                assert validate_grid(out) == out


def test_fit_map_prefers_roles_and_refuses_non_functions() -> None:
    a1 = to_array(((0, 0, 1), (0, 2, 2)))
    a2 = to_array(((3, 3, 5), (3, 7, 7)))
    # In both, the second most frequent colour becomes the most frequent one.
    entries = fit_map(
        [a1, a2], [to_array(((0, 0, 1), (0, 0, 0))), to_array(((3, 3, 5), (3, 3, 3)))], [a1, a2]
    )
    assert entries == (("c1", "c0"),)
    # One value cannot go to two colours.
    assert fit_map([a1], [to_array(((0, 1, 1), (0, 2, 2)))], [a1]) is None


@pytest.mark.parametrize(
    "text", ["smear{²}", "slide{len;w;d;r;²}", "stripe{c²s.0>5}", "sweep(down,1,lr){1.1>²}"]
)
def test_a_digit_outside_ascii_is_a_program_error(text: str) -> None:
    """``"²".isdigit()`` holds but ``int("²")`` fails: such a text is refused as a program error."""
    with pytest.raises(ProgramError):
        parse(text)
