"""Cell rules: tables keyed by a cell's place, its lines or its piece, fitted from demonstrations."""

from __future__ import annotations

import random

import numpy as np
from dsl_rig import made_task

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import Catalogue, FitInput
from continual_arc_baselines.dsl.cellrules import FITTER, KINDS, fit_cellrule
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.local import fit_local
from continual_arc_baselines.dsl.ops import CORE, WIDE

Pair = tuple[Grid, Grid]


def _grid(a: np.ndarray) -> Grid:
    return tuple(tuple(int(v) for v in row) for row in a)


def _lattice_pair(rng: random.Random) -> Pair:
    """Scattered green (3) cells; every background cell on a row and a column divisible by 3 turns
    magenta (6)."""
    h, w = rng.randint(7, 11), rng.randint(7, 11)
    a = np.zeros((h, w), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            if rng.random() < 0.2:
                a[y, x] = 3
    b = a.copy()
    for y in range(0, h, 3):
        for x in range(0, w, 3):
            if b[y, x] == 0:
                b[y, x] = 6
    return _grid(a), _grid(b)


def _studded_pair(rng: random.Random) -> Pair:
    """Two solid rectangles of two colours apart; inside each, the cells an odd number of rows and
    of columns from its top-left corner turn yellow (4)."""
    while True:
        h, w = rng.randint(9, 12), rng.randint(9, 12)
        a = np.zeros((h, w), dtype=np.uint8)
        boxes = []
        for colour in rng.sample([1, 2, 5, 8], 2):
            bh, bw = rng.randint(3, 5), rng.randint(3, 5)
            top, left = rng.randint(0, h - bh), rng.randint(0, w - bw)
            boxes.append((top, left, bh, bw))
            a[top : top + bh, left : left + bw] = colour
        (t1, l1, h1, w1), (t2, l2, h2, w2) = boxes
        # Apart by a background cell, diagonals too, and of different sizes (so roles differ).
        apart = t1 + h1 < t2 or t2 + h2 < t1 or l1 + w1 < l2 or l2 + w2 < l1
        if apart and h1 * w1 != h2 * w2:
            break
    b = a.copy()
    for top, left, bh, bw in boxes:
        b[top + 1 : top + bh : 2, left + 1 : left + bw : 2] = 4
    return _grid(a), _grid(b)


def test_the_wide_search_finds_a_lattice_rule_and_core_does_not() -> None:
    demos, (test_in, test_out) = made_task(_lattice_pair, 3, 3)
    wide = search(demos, test_in, catalogue=WIDE)
    assert wide.candidates
    first = wide.candidates[0]
    assert first.program.text.startswith("cellrule(p3){")
    assert first.prediction == test_out
    core = search(demos, test_in, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != test_out
    # The kept program runs on a new grid with no demonstrations, and its text reads back.
    program = parse(first.program.text)
    assert program.text == first.program.text
    new_in, new_out = _lattice_pair(random.Random(99))
    assert execute(program, new_in) == new_out


def test_the_wide_search_studs_each_piece_from_its_own_corner() -> None:
    demos, (test_in, test_out) = made_task(_studded_pair, 5, 3)
    # Core with this fitter alone: the cell rule is what answers (in wide, a cheaper per-object
    # table may say the same first).
    alone = Catalogue("cellrules", CORE.families, (FITTER,), CORE.base_fitted)
    found = search(demos, test_in, catalogue=alone)
    assert found.candidates
    first = found.candidates[0]
    assert first.program.text.startswith("cellrule(po){")
    assert first.prediction == test_out
    wide = search(demos, test_in, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == test_out
    core = search(demos, test_in, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != test_out


def test_a_key_the_test_input_shows_but_the_demonstrations_do_not_refuses() -> None:
    demos, _ = made_task(_lattice_pair, 3, 3)
    inputs = [to_array(i) for i, _ in demos]
    outputs = [to_array(o) for _, o in demos]
    assert fit_cellrule(inputs, outputs, inputs[0], "p3") is not None
    # A third colour (role 2) is a key no demonstration had.
    odd = inputs[0].copy()
    odd[1, 1] = 7
    odd[1, 2] = 7
    assert fit_cellrule(inputs, outputs, odd, "p3") is None


def test_no_cell_rule_is_offered_for_noise_or_where_core_local_rules_answer() -> None:
    rng = np.random.default_rng(11)
    noise_in = [rng.integers(0, 3, (6, 6)).astype(np.uint8) for _ in range(3)]
    noise_out = [rng.integers(0, 3, (6, 6)).astype(np.uint8) for _ in range(3)]
    assert all(fit_cellrule(noise_in, noise_out, noise_in[0], kind) is None for kind in KINDS)
    given = FitInput(
        (*noise_in, noise_in[0]), tuple(noise_out), tuple(Context(a) for a in (*noise_in, noise_in[0]))
    )
    assert FITTER.fit(given) == []
    # Background cells walled in on all four sides turn yellow: core's `local(b4)` says it as
    # well as a cell rule's ``c4`` does, so no cell rule is offered.
    inputs = [(rng.random((8, 8)) < 0.3).astype(np.uint8) for _ in range(3)]
    outputs = []
    for a in inputs:
        p = np.pad(a, 1)
        walled = (p[:-2, 1:-1] > 0) & (p[2:, 1:-1] > 0) & (p[1:-1, :-2] > 0) & (p[1:-1, 2:] > 0)
        outputs.append(np.where((a == 0) & walled, 4, a).astype(np.uint8))
    assert fit_cellrule(inputs, outputs, inputs[0], "c4") is not None
    assert fit_local(inputs, outputs, "b4") is not None
    given = FitInput((*inputs, inputs[0]), tuple(outputs), tuple(Context(a) for a in (*inputs, inputs[0])))
    assert FITTER.fit(given) == []


def test_malformed_cell_rule_texts_do_not_parse() -> None:
    assert FITTER.parse("cellrule(p3){0.0.0>6;0.0.1>c0}") is not None
    assert FITTER.parse("cellrule(p3){0.0>6}") is None  # a p3 key has three fields
    assert FITTER.parse("cellrule(zz){0.0>6}") is None  # no such kind
    assert FITTER.parse("cellrule(c4){0.1>c12}") is None  # no such role
    assert FITTER.parse("cellrule(c4){0.1>6") is None
