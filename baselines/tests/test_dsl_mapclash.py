"""The ``mapclash`` search feature of ``wide`` and `colours.clashes`."""

from __future__ import annotations

from dsl_rig import cells

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.catalogue import Catalogue
from continual_arc_baselines.dsl.colours import clashes
from continual_arc_baselines.dsl.ops import WIDE

# Grey (the commonest colour) takes the other colour, which turns black. On the test input the
# other colour, red, is the commonest, so grey is the second commonest: the role c1.
_DEMOS: list[Pair] = [
    (((5, 5, 3), (5, 3, 5), (5, 5, 5)), ((3, 3, 0), (3, 0, 3), (3, 3, 3))),
    (((5, 4, 5), (5, 5, 5), (4, 5, 5)), ((4, 0, 4), (4, 4, 4), (0, 4, 4))),
    (((5, 5, 5), (6, 5, 6), (5, 5, 5)), ((6, 6, 6), (0, 6, 0), (6, 6, 6))),
]
_TEST: Grid = ((2, 2, 5), (2, 5, 2), (2, 2, 2))


def test_clashes_when_a_literal_and_a_role_name_one_colour() -> None:
    entries = (("5", "c1"), ("c1", "0"))
    shown = cells([[5, 5, 3], [5, 3, 5], [5, 5, 5]])
    assert not clashes(entries, shown, shown)  # c1 is green here: two colours, two entries
    test = cells([[2, 2, 5], [2, 5, 2], [2, 2, 2]])
    assert clashes(entries, test, test)  # c1 is grey: grey is sent to grey and to black
    # Two keys naming one colour and sending it to one colour do not clash.
    assert not clashes((("5", "0"), ("c1", "0")), test, test)


# ``wide`` as it would be without the feature, and without ``changes``, which drops this answer too.
_UNGUARDED = Catalogue(
    "unguarded", WIDE.families, WIDE.fitters, WIDE.base_fitted, WIDE.features - {"mapclash", "changes"}
)


def test_without_the_feature_the_clashing_map_answers() -> None:
    # The demonstrations' grey background is held on the test input (``bg(5)``); the map leaves
    # every cell as it was.
    found = search(_DEMOS, _TEST, catalogue=_UNGUARDED)
    assert found.candidates
    first = found.candidates[0]
    assert first.program.text.endswith("map(5>c1,c1>0)") and first.prediction == _TEST


def test_mapclash_drops_the_clashing_map() -> None:
    found = search(_DEMOS, _TEST, catalogue=WIDE)
    assert all(not c.program.text.endswith("map(5>c1,c1>0)") for c in found.candidates)
    assert found.candidates and found.candidates[0].prediction == ((0, 0, 2), (0, 2, 0), (0, 0, 0))
