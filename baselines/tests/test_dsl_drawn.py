"""The gate of the fitters that draw on the background (`dsl.drawn`)."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl.drawn import background_paints, painted_colour, painted_colours

TEST = g("000", "000")


def test_the_colours_painted_on_the_background_are_read_per_pair() -> None:
    given = fit_input([(g("100", "000"), g("120", "000")), (g("000", "010"), g("330", "014"))], TEST)
    assert background_paints(given) == [{2}, {3, 4}]
    assert painted_colours(given) == {2, 3, 4}
    assert painted_colour(given) is None  # more than one colour
    one = fit_input([(g("100", "000"), g("120", "000"))], TEST)
    assert painted_colour(one) == 2


def test_a_pair_that_repaints_changes_size_or_changes_nothing_fails_the_gate() -> None:
    repaints = (g("100", "000"), g("200", "000"))
    grows = (g("100", "000"), g("100", "000", "000"))
    same = (g("100", "000"), g("100", "000"))
    for pair in (repaints, grows, same):
        given = fit_input([(g("000", "010"), g("000", "011")), pair], TEST)
        assert background_paints(given) is None
        assert painted_colours(given) is None
