"""The ``nearfit`` search feature of ``next``: a program that misses a cell or two of one
demonstration answers when nothing fits exactly, and never before an exact fit."""

from __future__ import annotations

import dataclasses

import numpy as np
from dsl_rig import digits

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.fitting import State, Task
from continual_arc_baselines.dsl.ops import NEXT

# ``next`` as it would be without the feature.
_OFF = dataclasses.replace(NEXT, name="off", features=NEXT.features - {"nearfit"})

_INPUTS: list[Grid] = [
    digits("12000", "03000", "00040", "60000"),
    digits("00564", "70000", "00800", "00009"),
    digits("30000", "04050", "00600", "00070"),
]
_TEST: Grid = digits("07080", "50000", "01020", "00003")


def _mirrored(grid: Grid) -> Grid:
    """The grid mirrored left to right (the tasks' rule)."""
    return tuple(tuple(reversed(row)) for row in grid)


def _recoloured(grid: Grid, old: int, new: int) -> Grid:
    """The grid with colour ``old`` painted ``new``."""
    return tuple(tuple(new if v == old else v for v in row) for row in grid)


def _with(grid: Grid, cells: list[tuple[int, int]]) -> Grid:
    """The grid with the given cells painted 9: strays no rule explains."""
    rows = [list(row) for row in grid]
    for y, x in cells:
        rows[y][x] = 9
    return tuple(tuple(row) for row in rows)


def _demos(strays: list[list[tuple[int, int]]]) -> list[Pair]:
    """The mirror task, each demonstration's output with its own stray cells."""
    return [(i, _with(_mirrored(i), s)) for i, s in zip(_INPUTS, strays, strict=True)]


def test_one_stray_cell_in_one_demonstration_is_answered_only_under_the_feature() -> None:
    demos = _demos([[], [(2, 0)], []])
    found = search(demos, _TEST, catalogue=NEXT)
    assert found.candidates
    assert found.candidates[0].program.text == "flip_h"
    # The mirrored test input, worked out by hand.
    assert found.candidates[0].prediction == digits("08070", "00005", "02010", "30000")
    assert found.first_fit is None  # a near candidate is no fit
    assert not search(demos, _TEST, catalogue=_OFF).candidates


def test_two_stray_cells_are_within_the_limit_and_three_are_not() -> None:
    two = search(_demos([[], [(2, 0), (3, 3)], []]), _TEST, catalogue=NEXT)
    assert two.candidates and two.candidates[0].program.text == "flip_h"
    three = search(_demos([[], [(2, 0), (3, 3), (0, 0)], []]), _TEST, catalogue=NEXT)
    assert not three.candidates


def test_strays_in_two_demonstrations_are_not_answered() -> None:
    assert not search(_demos([[(3, 0)], [(2, 0)], []]), _TEST, catalogue=NEXT).candidates


def test_a_stray_through_a_colour_map() -> None:
    # Mirror, then yellow becomes red; the second demonstration's output has one stray cell.
    outputs = [_recoloured(_mirrored(i), 4, 2) for i in _INPUTS]
    outputs[1] = _with(outputs[1], [(2, 0)])
    test = digits("07480", "50000", "01020", "00003")
    found = search(list(zip(_INPUTS, outputs, strict=True)), test, catalogue=NEXT)
    assert found.candidates and found.candidates[0].program.text == "flip_h | map(4>2)"
    assert found.candidates[0].prediction == digits("08270", "00005", "02010", "30000")
    assert not search(list(zip(_INPUTS, outputs, strict=True)), test, catalogue=_OFF).candidates


def test_an_exact_fit_wins_over_a_near_one_found_first() -> None:
    # Upside down. Every input is the same turned a half turn but for one cell of the second, so
    # mirroring left to right (tried first, as cheap) misses just two of its cells.
    inputs = [
        digits("12000", "00300", "00300", "00021"),
        digits("70080", "09050", "00090", "08007"),
        digits("04500", "60000", "00006", "00540"),
    ]
    demos = [(i, tuple(reversed(i))) for i in inputs]
    test = digits("10203", "00000", "04000", "00000")
    task = Task(demos, test, NEXT)
    mirrored = tuple(np.ascontiguousarray(np.fliplr(a)) for a in task.inputs)
    state = State(("flip_h",), mirrored, 4.0, 2.0, 0)
    assert task.fit(state) is None
    near = task.near_fit(state)
    assert near is not None and near.program.text == "flip_h"
    found = search(demos, test, catalogue=NEXT)
    assert found.first_fit is not None
    assert [c.program.text for c in found.candidates] == ["flip_v"]
    assert found.candidates[0].prediction == digits("00000", "04000", "00000", "10203")


def _state(task: Task, grids: list[np.ndarray], steps: tuple[str, ...] = ("flip_h",)) -> State:
    """A state of ``task`` holding ``grids`` for the demonstrations and the mirrored test input."""
    test = np.ascontiguousarray(np.fliplr(task.inputs[task.n]))
    return State(steps, (*grids, test), 4.0, 2.0, 0)


def test_a_label_left_on_the_stray_demonstration_is_no_near_candidate() -> None:
    # The outputs are exact mirrors; the state's second grid holds a label (11) at (2, 0), where its
    # output has 0: the program would make no grid on that demonstration, so it is no near miss.
    demos = _demos([[], [], []])
    task = Task(demos, _TEST, NEXT)
    grids = [np.ascontiguousarray(np.fliplr(a)) for a in task.inputs[: task.n]]
    assert task.near_fit(_state(task, grids)) is None  # every demonstration exact: nothing near
    grids[1] = grids[1].copy()
    grids[1][2, 0] = 11
    assert task.near_fit(_state(task, grids)) is None
    grids[1][2, 0] = 7  # the same cell in a colour is a stray
    assert task.near_fit(_state(task, grids)) is not None


def test_the_unchanged_input_is_no_near_answer() -> None:
    # Outputs equal their inputs but for one stray cell: no program (the bare input) is no rule.
    demos = [(i, _with(i, [(0, 4)] if d == 1 else [])) for d, i in enumerate(_INPUTS)]
    task = Task(demos, _TEST, NEXT)
    root = State((), task.inputs, 1.0, 1.0, 0)
    assert task.near_fit(root) is None


def test_a_single_demonstration_is_never_near() -> None:
    demos = _demos([[(2, 0)], [], []])[:1]
    task = Task(demos, _TEST, NEXT)
    grids = [np.ascontiguousarray(np.fliplr(task.inputs[0]))]
    assert task.near_fit(_state(task, grids)) is None


_WIDE_INPUTS: list[Grid] = [
    digits(*[("12345678" * 2)[r : r + 8] for r in range(8)]),
    digits(*[("87654321" * 2)[r : r + 8] for r in range(8)]),
    digits(*[("13572468" * 2)[r : r + 8] for r in range(8)]),
]


def test_at_most_two_stray_cells_even_on_a_large_grid() -> None:
    # 8 x 8 grids whose mirror changes every cell: only the limit of two cells turns three away.
    base = [_mirrored(i) for i in _WIDE_INPUTS]
    for strays, answered in (([(0, 0), (7, 7)], True), ([(0, 0), (7, 7), (3, 4)], False)):
        demos = list(zip(_WIDE_INPUTS, [base[0], _with(base[1], strays), base[2]], strict=True))
        task = Task(demos, _WIDE_INPUTS[0], NEXT)
        grids = [np.ascontiguousarray(np.fliplr(a)) for a in task.inputs[: task.n]]
        assert (task.near_fit(_state(task, grids)) is not None) is answered
