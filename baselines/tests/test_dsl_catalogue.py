"""Catalogues: ``wide`` is the default and extends ``core`` in order, fitters reach the search."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.catalogue import Catalogue, FitInput, Fitter
from continual_arc_baselines.dsl.family import Op
from continual_arc_baselines.dsl.grid import Array, Context
from continual_arc_baselines.dsl.ops import CATALOGUES, CORE, DEFAULT, NEXT, OPS, WIDE, catalogue, lookup
from continual_arc_baselines.library.dsl_writer import DslWriter
from continual_arc_baselines.library.learner import ProgramLibraryLearner
from continual_arc_baselines.library.writer import WriteRequest


def test_wide_is_the_default_and_extends_core_in_order() -> None:
    assert DEFAULT is WIDE and WIDE.ops == OPS
    texts = [op.text for op in CORE.ops]
    assert [op.text for op in WIDE.ops[: len(texts)]] == texts
    assert set(CATALOGUES) == {"core", "wide", "next"}
    assert all(CORE.base_costs[t] == WIDE.base_costs[t] for t in CORE.base_costs)


def test_next_extends_wide_in_order() -> None:
    texts = [op.text for op in WIDE.ops]
    assert [op.text for op in NEXT.ops[: len(texts)]] == texts
    assert NEXT.fitters[: len(WIDE.fitters)] == WIDE.fitters
    assert all(WIDE.base_costs[t] == NEXT.base_costs[t] for t in WIDE.base_costs)


def test_every_step_of_next_reads_back_from_its_text() -> None:
    for op in NEXT.ops:
        found = lookup(op.text)
        assert found is not None and found.text == op.text and found.cost == op.cost


def test_fitter_prefixes_are_unique_and_end_their_text_in_braces() -> None:
    prefixes = [f.prefix for f in WIDE.fitters]
    assert len(prefixes) == len(set(prefixes))
    core_prefixes = ("window(", "local(", "blocks(", "continue{", "stack(", "halo(")
    assert not any(p.startswith(core_prefixes) or core_prefixes[0].startswith(p) for p in prefixes)


def test_an_unknown_catalogue_is_refused_in_one_sentence() -> None:
    with pytest.raises(
        ValueError, match=r"no search catalogue is called 'deep'; the catalogues are core, wide"
    ):
        catalogue("deep")
    with pytest.raises(ValueError, match="no search catalogue"):
        DslWriter(catalogue="deep", cache=False)
    with pytest.raises(ValueError, match="no search catalogue"):
        ProgramLibraryLearner(catalogue="deep", search_cache=False)


def _roll_op(shift: int) -> Op:
    def step(grid: Array, ctx: Context) -> Array:
        return np.roll(grid, shift, axis=1)

    return Op(f"roll{{{shift}}}", 1.0, step, "same")


def _fit_roll(given: FitInput) -> Sequence[Op]:
    """The one column shift, if any, that turns every demonstration input into its output."""
    width = given.inputs[0].shape[1]
    for shift in range(1, width):
        pairs = zip(given.inputs[: given.n], given.outputs, strict=True)
        if all(np.array_equal(np.roll(i, shift, axis=1), o) for i, o in pairs):
            return [_roll_op(shift)]
    return []


def _parse_roll(text: str) -> Op | None:
    body = text.removeprefix("roll{").removesuffix("}")
    return _roll_op(int(body)) if body.isdigit() else None


ROLLS = Catalogue("rolls", (), (Fitter("roll{", {"roll": 1.0}, _fit_roll, _parse_roll),))


def _roll_task(shift: int, seed: int) -> tuple[list[Pair], Pair]:
    rng = random.Random(seed)
    pairs: list[Pair] = []
    for _ in range(4):
        rows = [[rng.randrange(10) for _ in range(7)] for _ in range(5)]
        grid: Grid = tuple(tuple(r) for r in rows)
        rolled: Grid = tuple(tuple(r[-shift:] + r[:-shift]) for r in rows)
        pairs.append((grid, rolled))
    return pairs[:3], pairs[3]


@pytest.mark.parametrize(("shift", "seed"), [(1, 0), (3, 1), (5, 2)])
def test_a_catalogue_fitter_gives_the_search_its_step(shift: int, seed: int) -> None:
    demos, (test_input, answer) = _roll_task(shift, seed)
    found = search(demos, test_input, catalogue=ROLLS)
    assert found.candidates and found.candidates[0].program.text == f"roll{{{shift}}}"
    assert found.candidates[0].prediction == answer
    # The default catalogue has no column shift of seven: nothing it fits answers right first.
    plain = search(demos, test_input, budget=300)
    assert not plain.candidates or plain.candidates[0].prediction != answer


def test_the_writer_keys_its_cache_by_catalogue(tmp_path: Path) -> None:
    core = DslWriter(cache_dir=tmp_path, catalogue="core")
    wide = DslWriter(cache_dir=tmp_path)
    assert (core.catalogue, wide.catalogue) == (CORE, WIDE)
    demos, (test_input, _) = _roll_task(2, 9)
    request = WriteRequest(tuple(demos), test_input, "t/0")
    assert core._key(request) != wide._key(request)


def test_the_library_learner_passes_its_catalogue_to_the_search() -> None:
    learner = ProgramLibraryLearner(catalogue="core", search_cache=False)
    assert isinstance(learner.writer, DslWriter) and learner.writer.catalogue is CORE
    assert ProgramLibraryLearner(search_cache=False).writer.catalogue is WIDE  # type: ignore[attr-defined]


def test_a_fit_input_says_whether_a_step_reproduces_every_demonstration() -> None:
    demos, (test_input, _) = _roll_task(3, 4)
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in demos), np.array(test_input, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in demos)
    given = FitInput(inputs, outputs, tuple(Context(a) for a in inputs))
    assert given.reproduced_by(_roll_op(3))
    assert not given.reproduced_by(_roll_op(2))
    refusing = Op("never", 1.0, lambda grid, ctx: None, "same")
    assert not given.reproduced_by(refusing)
