"""Search features of the ``wide`` catalogue: each changes the result there, and ``core`` has none."""

from __future__ import annotations

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.fitting import Task
from continual_arc_baselines.dsl.ops import CORE, WIDE

# Count the coloured cells: a row of that many cells of their colour. Every demonstration is
# mostly black; the test input is mostly red, so its commonest colour is not its background.
_COUNT_DEMOS: list[Pair] = [
    (((0, 0, 3), (0, 3, 0), (0, 0, 0)), ((3, 3),)),
    (((4, 0, 0), (0, 0, 0), (0, 4, 4)), ((4, 4, 4),)),
    (((0, 0, 0), (0, 6, 0), (0, 0, 0)), ((6,),)),
    (((1, 0, 1), (0, 0, 0), (0, 1, 1)), ((1, 1, 1, 1),)),
]
_COUNT_TEST: Grid = ((2, 2, 0), (2, 0, 2), (0, 2, 2))


def test_heldbg_counts_the_big_object_against_the_demonstrations_background() -> None:
    """Six red cells on black: a row of six reds, and the program says which background it held."""
    found = search(_COUNT_DEMOS, _COUNT_TEST, catalogue=WIDE)
    assert found.candidates
    first = found.candidates[0]
    assert first.prediction == ((2, 2, 2, 2, 2, 2),)
    assert first.program.text.startswith("bg(0) | ")
    # The text alone re-runs it, with no demonstrations.
    assert execute(parse(first.program.text), _COUNT_TEST) == ((2, 2, 2, 2, 2, 2),)


def test_core_keeps_the_test_inputs_own_background() -> None:
    """Without the feature red is the background and the three black cells are counted."""
    found = search(_COUNT_DEMOS, _COUNT_TEST, catalogue=CORE)
    assert found.candidates
    assert found.candidates[0].prediction == ((0, 0, 0),)
    assert Task(_COUNT_DEMOS, _COUNT_TEST, CORE).held is None


def test_heldbg_needs_one_shared_background_the_test_input_holds() -> None:
    """Demonstrations on two backgrounds, or a test input without theirs, hold nothing."""
    mixed = [*_COUNT_DEMOS[:3], (((5, 1, 5), (5, 5, 5), (1, 5, 5)), ((1, 1),))]
    assert Task(mixed, _COUNT_TEST, WIDE).held is None
    assert Task(_COUNT_DEMOS, ((2, 2, 7), (2, 7, 2), (7, 2, 2)), WIDE).held is None
    assert Task(_COUNT_DEMOS, ((0, 0, 2), (0, 2, 0), (0, 0, 0)), WIDE).held is None
    assert Task(_COUNT_DEMOS, _COUNT_TEST, WIDE).held == 0


def test_held_background_step_parses_free_and_holds_only_a_present_colour() -> None:
    """``bg(c)`` costs nothing, and on a grid without ``c`` the grid's own background stays."""
    program = parse("bg(0)|count")
    assert program.text == "bg(0) | count"
    assert program.cost == parse("count").cost
    # No black here: blue stays the background, and the two reds are counted.
    assert execute(program, ((1, 1, 2), (1, 2, 1), (1, 1, 1))) == ((2, 2),)


# Turn each grid upside down. Every demonstration is 3 x 3 both ways, so the outputs share one
# shape; the test input is 2 x 4.
_FLIP_DEMOS: list[Pair] = [
    (((1, 0, 0), (0, 2, 0), (0, 0, 0)), ((0, 0, 0), (0, 2, 0), (1, 0, 0))),
    (((0, 3, 3), (0, 0, 0), (4, 0, 0)), ((4, 0, 0), (0, 0, 0), (0, 3, 3))),
    (((5, 5, 0), (0, 0, 6), (0, 0, 0)), ((0, 0, 0), (0, 0, 6), (5, 5, 0))),
]
_FLIP_TEST: Grid = ((7, 0, 0, 8), (0, 0, 9, 0))


def test_sizefollows_answers_a_test_input_of_another_shape_at_its_own_size() -> None:
    found = search(_FLIP_DEMOS, _FLIP_TEST, catalogue=WIDE)
    assert found.candidates
    assert found.candidates[0].prediction == ((0, 0, 9, 0), (7, 0, 0, 8))


def test_core_holds_every_answer_to_the_demonstrations_one_output_shape() -> None:
    assert Task(_FLIP_DEMOS, _FLIP_TEST, CORE).held_to.fixed == (3, 3)
    found = search(_FLIP_DEMOS, _FLIP_TEST, catalogue=CORE)
    assert all(len(c.prediction) == 3 and len(c.prediction[0]) == 3 for c in found.candidates)


def test_sizefollows_keeps_a_fixed_shape_the_inputs_do_not_explain() -> None:
    # Inputs of two shapes, outputs all 1 x 1: the fixed shape stands on its own.
    demos: list[Pair] = [(((1, 1), (1, 0)), ((1,),)), (((2, 2, 2),), ((2,),))]
    task = Task(demos, ((3, 3), (3, 3)), WIDE)
    assert task.held_to.fixed == (1, 1)
