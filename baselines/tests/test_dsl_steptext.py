"""How fitted steps write and read their constants (`dsl.steptext`)."""

from __future__ import annotations

from continual_arc_baselines.dsl.steptext import braced, colour_text, parse_colour

_ROLES = {-1: "=", -2: "."}


def test_braced_gives_the_arguments_of_its_own_step_only() -> None:
    assert braced("beam{to;m}", "beam") == "to;m"
    assert braced("beam{}", "beam") == ""
    assert braced("beams{to;m}", "beam") is None  # another step's name
    assert braced("beam{to;m", "beam") is None
    assert braced("beam(to;m)", "beam") is None


def test_a_colour_reads_back_as_it_was_written() -> None:
    for colour in (-2, -1, 0, 7, 9):
        assert parse_colour(colour_text(colour, _ROLES), _ROLES) == colour
    assert colour_text(3) == "3"


def test_a_colour_out_of_range_or_an_unknown_role_is_refused() -> None:
    assert parse_colour("10") is None
    assert parse_colour("=") is None  # a role only where the step names it
    assert parse_colour("x", _ROLES) is None
    assert parse_colour("") is None
