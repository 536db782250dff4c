"""The task a search works on, and the check that turns a state into a candidate.

A *state* is the list of grids a partial program makes from every demonstration input and the
test input. It fits when its demonstration grids are the outputs: as they are, through a colour
map fitted last (`colours.fit_map`), or through a block layout (`layout.fit_blocks`).
A fit whose test prediction breaks a rule every demonstration obeys (`shapes`) is dropped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .catalogue import Catalogue, FitInput
from .chosen import infer_size
from .colours import Entry, apply_map, clashes, entry_cost, fit_map, functional, resolve, roles
from .extract import CORNERS
from .family import Op
from .grid import SENTINEL, Array, Context, Grid, Pair, to_array, to_grid
from .halo import RADII, fit_halo, halo_op
from .layout import blocks_op, continue_op, fit_blocks, scaled_continue_op
from .local import local_ops
from .ops import DEFAULT, window_op
from .program import Program, held_text, map_text
from .shapes import Expectation, expect
from .stacking import fit_stack

__all__ = ["NEAR_CELLS", "NEAR_PART", "NEAR_SHARE", "Candidate", "State", "Task"]

NEAR_CELLS = 2
"""The most cells of its one stray demonstration a near candidate (``nearfit``) may miss."""

NEAR_SHARE = 4
"""A near candidate's missed cells times this may not exceed the cells its stray demonstration
changes (when outputs keep their inputs' shapes): a rule that misses half of a small edit has not
explained it."""

NEAR_PART = 10
"""A near candidate's missed cells times this may not exceed its stray demonstration's output cells:
one cell of a four-cell answer is no stray."""


@dataclass(frozen=True)
class Candidate:
    """A program that reproduces every demonstration, and its answer for the test input.

    Under ``nearfit`` a search with no such program returns near candidates instead: programs
    that miss a cell or two of one demonstration (`Task.near_fit`).

    Attributes:
        program: the program (its text runs with no demonstrations; its cost is the empty prior's).
        prediction: its output on the test input.
        cost: its description length in bits under the prior it was found with.
        weight: ``2 ** -cost``, a prior to sum over candidates that predict the same grid.
        found_at: the primitive applications the search had spent when it found the program.
    """

    program: Program
    prediction: Grid
    cost: float
    weight: float
    found_at: int = 0


@dataclass(frozen=True)
class State:
    """Grids a partial program makes, one per demonstration input and one for the test input.

    Attributes:
        steps: the program's steps so far, as text.
        grids: its grids, demonstrations first, the test input's last.
        cost: its cost in bits under the search's prior.
        base: its cost under the empty prior (the program's own cost).
        root: which of the task's contexts it started from (0, or 1 for ``bg0``).
        last: nothing may follow it (it ended with a rotation or reflection).
    """

    steps: tuple[str, ...]
    grids: tuple[Array, ...]
    cost: float
    base: float
    root: int
    last: bool = False


def _fixed_by_inputs(expectation: Expectation, inputs: Sequence[Array]) -> bool:
    """Whether the outputs' fixed shape follows from a scale and inputs that all share one shape."""
    return (
        expectation.fixed is not None
        and expectation.scale is not None
        and len({a.shape for a in inputs}) == 1
    )


class Task:
    """The demonstrations and test input in array form, the rules they obey, and the fit check.

    ``catalogue`` names the steps a search of the task may take (`catalogue`); its fitters add
    to the fitted steps every catalogue has.
    """

    def __init__(self, demos: Sequence[Pair], test_input: Grid, catalogue: Catalogue = DEFAULT) -> None:
        self.catalogue = catalogue
        self.inputs = (*(to_array(i) for i, _ in demos), to_array(test_input))
        self.outputs = tuple(to_array(o) for _, o in demos)
        self.n = len(demos)
        self.contexts = [tuple(Context(a) for a in self.inputs)]
        # ``heldbg``: the test input keeps the background every demonstration input shares, when its
        # own commonest colour is another (a big object on a small grid) but it holds that one too.
        # The plain root's programs are then written after the free step `program.held_text`.
        self.held = _held_background(self.contexts[0], self.n) if "heldbg" in catalogue.features else None
        if self.held is not None:
            self.contexts[0][self.n].bg = self.held
        if any(c.bg > 0 and np.any(c.original == 0) for c in self.contexts[0]):
            # A second root whose background is colour 0 (the ``bg0`` step).
            zero = tuple(Context(a) for a in self.inputs)
            for c in zero:
                c.bg = 0 if np.any(c.original == 0) else c.bg
            self.contexts.append(zero)
        self.expectation: Expectation = expect(self.inputs[: self.n], self.outputs)
        self.same = all(i.shape == o.shape for i, o in zip(self.inputs, self.outputs, strict=False))
        self.given = FitInput(self.inputs, self.outputs, self.contexts[0])
        # The size the answer must have, when rules read from the demonstrations agree on one
        # (``outsize``, `chosen.infer_size`); core leaves it unset. Such a size overrides a fixed or
        # scaled one (its rules read the input), so the rules an answer is then held to drop those.
        self.size = infer_size(self.given) if "outsize" in catalogue.features else None
        self.held_to = self.expectation
        if self.size is not None:
            self.held_to = dataclasses.replace(self.expectation, fixed=None, scale=None)
        elif "sizefollows" in catalogue.features and _fixed_by_inputs(
            self.expectation, self.inputs[: self.n]
        ):
            # ``sizefollows``: outputs that all have their inputs' one shape are fixed only because
            # the inputs are; a test input of another shape is answered at its own size.
            self.held_to = dataclasses.replace(self.expectation, fixed=None)
        # ``changes``: when every demonstration changes its input, an answer that leaves the test
        # input as it was is a program that did nothing there (a map whose literal and role keys
        # name one colour on the test input, a step with nothing to act on), not the task's rule.
        # ``mapclash``: a fitted map whose literal and role keys name one colour on the test input
        # alone (`colours.clashes`) answers with a rule the demonstrations never showed.
        self.mapclash = "mapclash" in catalogue.features
        self.changes = "changes" in catalogue.features and all(
            i.shape != o.shape or not np.array_equal(i, o)
            for i, o in zip(self.inputs, self.outputs, strict=False)
        )
        # ``nearfit``: a state that misses a few cells of one demonstration and matches every other
        # is kept as a near candidate (`near_fit`), answered only when nothing fits exactly.
        self.nearfit = "nearfit" in catalogue.features and self.n > 1
        self.near_floor = round((self.n - 1) / self.n, 6) - 1e-6

    def fitted_ops(self) -> tuple[Op, ...]:
        """The steps whose constants the demonstrations fix: windows, continuations, halos, local rules."""
        fixed, scale = self.expectation.fixed, self.expectation.scale
        windows = (*(window_op(c, *fixed) for c in CORNERS), continue_op(*fixed)) if fixed else ()
        if scale is not None and min(scale) >= 1 and max(scale) > 1:
            windows = (*windows, scaled_continue_op(*scale))
        rules = [] if self.same else fit_stack(self.inputs[: self.n], self.outputs, self.contexts[0])
        if self.same:
            bgs = [c.bg for c in self.contexts[0][: self.n]]
            for radius in RADII:
                stamps = fit_halo(self.inputs[: self.n], self.outputs, bgs, radius)
                if stamps is not None:
                    rules.append(halo_op(radius, stamps))
                    break  # the smallest radius that fits says it all
            rules.extend(local_ops(self.inputs[: self.n], self.outputs))
        rules.extend(op for fitter in self.catalogue.fitters for op in fitter.fit(self.given))
        return (*windows, *rules)

    def shapes_match(self, state: State) -> bool:
        """Whether every demonstration grid of a state has its output's shape."""
        return all(g.shape == o.shape for g, o in zip(state.grids, self.outputs, strict=False))

    def explained(self, state: State) -> float:
        """The share of demonstration cells a state explains (0 where shapes differ).

        A cell is explained when its value, in its demonstration, always stands where the output
        has one colour. States that explain more of the outputs are expanded sooner.
        """
        total = 0.0
        for grid, output in zip(state.grids, self.outputs, strict=False):
            if grid.shape != output.shape:
                return 0.0
            values = int(grid.max()) + 1
            codes = grid.ravel().astype(np.intp) * 16 + output.ravel()
            per_value = np.bincount(codes, minlength=values * 16).reshape(values, 16)
            single = np.count_nonzero(per_value, axis=1) == 1
            total += float(per_value[single].sum()) / output.size
        return round(total / self.n, 6)

    def fit(self, state: State) -> Candidate | None:
        """The candidate a state makes, if it reproduces every demonstration."""
        demo_grids = state.grids[: self.n]
        if not self.shapes_match(state):
            return self._fit_blocks(state)
        test, steps, cost, base = state.grids[self.n], state.steps, state.cost, state.base
        if all(np.array_equal(g, o) for g, o in zip(demo_grids, self.outputs, strict=True)):
            if not steps:
                return None
        else:
            entries = fit_map(demo_grids, self.outputs, self.inputs[: self.n])
            if entries is None:
                return None
            if self.mapclash and clashes(entries, test, self.inputs[self.n]):
                shown = zip(demo_grids, self.inputs[: self.n], strict=True)
                if not any(clashes(entries, g, i) for g, i in shown):
                    return None
            mapped = apply_map(entries, test, self.inputs[self.n])
            if mapped is None:
                return None
            test = mapped
            steps = (*steps, map_text(entries))
            extra = sum(entry_cost(e) for e in entries)
            cost, base = cost + extra, base + extra
        return self._candidate(steps, test, cost, base, state.root)

    def near_fit(self, state: State, explained: float | None = None) -> Candidate | None:
        """The candidate a state makes if it misses a few cells of one demonstration only.

        ARC's demonstrations are hand-drawn and now and then a cell or two of one output
        disagrees with the rule every other cell obeys. A state whose grids have the outputs'
        shapes, match every demonstration but one exactly and miss at most `NEAR_CELLS` cells of
        that one (and few of the cells that demonstration changes) is such a rule. Its program is
        the state's steps: it re-runs as it is. Only states `fit` turned down are asked.
        ``explained`` is `explained`'s share for the state when the caller has it.
        """
        if not self.nearfit or not self.shapes_match(state):
            return None
        # Every demonstration but one must be explained whole (exactly, or through a map): a cheap
        # necessary test, the share most states already have, that turns nearly all of them away.
        if explained is None:
            explained = self.explained(state)
        if explained < self.near_floor:
            return None
        demo = state.grids[: self.n]
        off = [int(np.count_nonzero(g != o)) for g, o in zip(demo, self.outputs, strict=True)]
        stray = [d for d, k in enumerate(off) if k]
        if len(stray) == 1 and state.steps:
            if int(demo[stray[0]].max()) >= SENTINEL:
                return None  # a label left on the stray demonstration: the program makes no grid there
            return self._near(state, stray[0], off[stray[0]], state.steps, state.grids[self.n], 0.0)
        # Through a colour map: the one demonstration no map explains is left out of the map's
        # fit and must then match it but for a few cells.
        loose = [
            d for d, (g, o) in enumerate(zip(demo, self.outputs, strict=True)) if functional(g, o) is None
        ]
        if len(loose) != 1 or len(stray) < 2:
            return None
        (d,) = loose
        keep = [e for e in range(self.n) if e != d]
        entries = fit_map(
            [demo[e] for e in keep], [self.outputs[e] for e in keep], [self.inputs[e] for e in keep]
        )
        if not entries:
            return None
        mapped = apply_map(entries, demo[d], self.inputs[d])
        if (
            mapped is None
            or int(mapped.max()) >= SENTINEL
            or not self._borne_out(entries, demo[d], mapped, d)
        ):
            return None
        test = apply_map(entries, state.grids[self.n], self.inputs[self.n])
        if test is None:
            return None
        if self.mapclash and clashes(entries, state.grids[self.n], self.inputs[self.n]):
            return None
        missed = int(np.count_nonzero(mapped != self.outputs[d]))
        extra = sum(entry_cost(e) for e in entries)
        return self._near(state, d, missed, (*state.steps, map_text(entries)), test, extra)

    def _borne_out(self, entries: Sequence[Entry], grid: Array, mapped: Array, d: int) -> bool:
        """Whether the left-out demonstration ``d`` shows every entry of a map the others fixed.

        Each entry's colour must stand in ``grid`` and be mapped right on most of its cells: an
        entry the left-out demonstration does not bear out may be a stray of the others (a role
        that names one odd cell's colour), not part of the rule.
        """
        named = roles(self.inputs[d])
        right = mapped == self.outputs[d]
        for key, _ in entries:
            source = resolve(key, named)
            if source is None or source > 255:
                return False
            cells = grid == source
            if 2 * int(np.count_nonzero(right & cells)) <= int(np.count_nonzero(cells)):
                return False
        return True

    def _near(
        self, state: State, d: int, missed: int, steps: tuple[str, ...], test: Array, extra: float
    ) -> Candidate | None:
        """A near candidate, if demonstration ``d``'s ``missed`` cells are few enough."""
        if missed > NEAR_CELLS or missed * NEAR_PART > self.outputs[d].size:
            return None
        if self.same and missed * NEAR_SHARE > int(np.count_nonzero(self.inputs[d] != self.outputs[d])):
            return None
        return self._candidate(steps, test, state.cost + extra, state.base + extra, state.root)

    def _fit_blocks(self, state: State) -> Candidate | None:
        bgs = [c.bg for c in self.contexts[state.root][: self.n]]
        layout = fit_blocks(state.grids[: self.n], self.outputs, bgs)
        if layout is None:
            return None
        op = blocks_op(*layout)
        test = op(state.grids[self.n], self.contexts[state.root][self.n])
        if test is None:
            return None
        steps = (*state.steps, op.text)
        return self._candidate(steps, test, state.cost + op.cost, state.base + op.cost, state.root)

    def _candidate(
        self, steps: tuple[str, ...], test: Array, cost: float, base: float, root: int
    ) -> Candidate | None:
        prediction = to_grid(test)
        if prediction is None or (self.size is not None and test.shape != self.size):
            return None
        if not self.held_to.admits(self.inputs[self.n], test):
            return None
        if self.changes and np.array_equal(test, self.inputs[self.n]):
            return None
        if root == 0 and self.held is not None:
            steps = (held_text(self.held), *steps)
        return Candidate(Program(" | ".join(steps), base), prediction, cost, 2.0**-cost)


def _held_background(contexts: Sequence[Context], n: int) -> int | None:
    """The background the demonstration inputs share, if the test input holds it but is cut otherwise.

    ``None`` when the demonstration inputs have several backgrounds, or the test input's commonest
    colour is theirs already, or it lacks their colour.
    """
    bgs = {c.bg for c in contexts[:n]}
    test = contexts[n]
    if len(bgs) != 1:
        return None
    (bg,) = bgs
    if test.bg == bg or not (test.original == bg).any():
        return None
    return bg
