"""Enumerative program search, cheapest programs first, bounded by a count of primitive applications.

A *state* is the list of grids a partial program makes from every demonstration input and from
the test input, together. A state is new only if its bytes are (deduplication), and it exists
only if the primitive applied to all of its grids. Each new state is checked against the
demonstrations' outputs, as it is or through a fitted colour map (:func:`.colours.fit_map`); a
fit whose test prediction obeys the rules the demonstrations obey (:mod:`.shapes`) becomes a
candidate.

Expansion is uniform-cost over (state, cost tier) pairs: a state of cost ``c`` meets the
primitives of cost ``k`` when ``c + k`` is the cheapest thing left to try, so a cheap primitive
is tried after many others before a dear one is tried once. Among equal costs, states that
already get more demonstration cells right go first. Three cuts keep the frontier small: a
state that already has the outputs' shapes meets only shape-keeping primitives; nothing follows
a rotation or reflection (they commute with nearly everything, so they are tried last); and the
search stops once nothing left is cheaper than the best fit found. Besides the plain root there
is a ``bg0`` root, whose background is colour 0, when some input has a 0 that is not its most
frequent colour.

The budget counts primitive applications (one primitive on one state), never seconds, so the
same call gives the same answer on any machine; ``time_cap`` is only a safety net.
"""

from __future__ import annotations

import heapq
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from continual_arc.core.grids import Grid, Pair

from .colours import apply_map, entry_cost, fit_map
from .extract import CORNERS
from .family import Op
from .grid import Array, Context, key_of, to_array, to_grid
from .ops import OPS, WINDOW_COST, window_op
from .program import ZERO_BG, Program, map_text
from .shapes import Expectation, expect

__all__ = ["DEFAULT_BUDGET", "Candidate", "SearchResult", "search"]

logger = logging.getLogger(__name__)

DEFAULT_BUDGET = 1800
"""Primitive applications a search may spend by default."""

SLACK = 0
"""How much costlier than the cheapest fit a state may be and still be expanded for alternatives."""

_CLOCK_EVERY = 64


@dataclass(frozen=True)
class Candidate:
    """A program that reproduces every demonstration, and its answer for the test input.

    Attributes:
        program: the program (its text runs with no demonstrations).
        prediction: its output on the test input.
        weight: ``2 ** -cost``, a prior to sum over candidates that predict the same grid.
    """

    program: Program
    prediction: Grid
    weight: float


@dataclass(frozen=True)
class SearchResult:
    """What a search found and what it spent.

    Attributes:
        candidates: fitting programs that run on the test input, cheapest first (ties in the
            order found); at most ``max_candidates``.
        applications: primitive applications spent.
        budget_exhausted: the search stopped because the budget ran out.
        hit_time_cap: the wall-clock safety net stopped it.
    """

    candidates: tuple[Candidate, ...]
    applications: int
    budget_exhausted: bool
    hit_time_cap: bool


@dataclass(frozen=True)
class _State:
    steps: tuple[str, ...]
    grids: tuple[Array, ...]
    cost: int
    root: int
    last: bool = False


class _Task:
    """The demonstrations and test input in array form, and the fit check."""

    def __init__(self, demos: Sequence[Pair], test_input: Grid) -> None:
        self.inputs = (*(to_array(i) for i, _ in demos), to_array(test_input))
        self.outputs = tuple(to_array(o) for _, o in demos)
        self.contexts = [tuple(Context(a) for a in self.inputs)]
        if any(c.bg > 0 and np.any(c.original == 0) for c in self.contexts[0]):
            # A second root whose background is colour 0 (the ``bg0`` step).
            zero = tuple(Context(a) for a in self.inputs)
            for c in zero:
                c.bg = 0 if np.any(c.original == 0) else c.bg
            self.contexts.append(zero)
        self.n = len(demos)
        self.expectation: Expectation = expect(self.inputs[: self.n], self.outputs)
        fixed = self.expectation.fixed
        # Outputs of one shape: the windows of that shape at each corner join the second tier.
        self.windows = tuple(window_op(c, *fixed) for c in CORNERS) if fixed else ()

    def closeness(self, state: _State) -> float:
        """The share of demonstration cells a state already gets right (0 where shapes differ).

        Among states of equal cost, the closer ones are expanded first.
        """
        total = 0.0
        for grid, output in zip(state.grids, self.outputs, strict=False):
            if grid.shape == output.shape:
                total += float(np.count_nonzero(grid == output)) / output.size
        return round(total / self.n, 6)

    def fit(self, state: _State) -> Candidate | None:
        """The candidate a state makes, if it reproduces every demonstration."""
        cost = state.cost
        demo_grids = state.grids[: self.n]
        if any(g.shape != o.shape for g, o in zip(demo_grids, self.outputs, strict=True)):
            return None
        test = state.grids[self.n]
        steps = state.steps
        if all(np.array_equal(g, o) for g, o in zip(demo_grids, self.outputs, strict=True)):
            if not steps:
                return None
        else:
            entries = fit_map(demo_grids, self.outputs, self.inputs[: self.n])
            if entries is None:
                return None
            mapped = apply_map(entries, test, self.inputs[self.n])
            if mapped is None:
                return None
            test = mapped
            steps = (*steps, map_text(entries))
            cost += sum(entry_cost(e) for e in entries)
        prediction = to_grid(test)
        if prediction is None or not self.expectation.admits(self.inputs[self.n], test):
            return None
        return Candidate(Program(" | ".join(steps), cost), prediction, 2.0**-cost)


def _apply(op: Op, state: _State, contexts: tuple[Context, ...]) -> _State | None:
    grids = []
    for grid, ctx in zip(state.grids, contexts, strict=True):
        out = op(grid, ctx)
        if out is None:
            return None
        grids.append(out)
    return _State((*state.steps, op.text), tuple(grids), state.cost + op.cost, state.root, op.last)


_TIERS = tuple(sorted({op.cost for op in OPS}))


def _tier_ops(shapes: str) -> dict[int, tuple[Op, ...]]:
    allowed = {"any": ("same", "square", "other"), "square": ("same", "square"), "same": ("same",)}[shapes]
    return {tier: tuple(op for op in OPS if op.cost == tier and op.shape in allowed) for tier in _TIERS}


_OPS_BY_SHAPES = {shapes: _tier_ops(shapes) for shapes in ("any", "square", "same")}


class _Search:
    """The state of one search: the frontier, the states seen, the candidates and the spending."""

    def __init__(self, task: _Task, budget: int, time_cap: float) -> None:
        self.task = task
        self.budget = budget
        self.time_cap = time_cap
        self.deadline = time.monotonic() + time_cap
        self.states: list[_State] = []
        self.frontier: list[tuple[int, float, int, int]] = []
        self.seen: set[bytes] = set()
        self.found: list[tuple[int, int, Candidate]] = []
        self.best: int | None = None
        self.applications = 0
        self.exhausted = self.timed_out = False

    def add(self, state: _State, check: bool = True) -> None:
        """Record a state if it is new, check it for a fit, and schedule its expansion."""
        key = bytes((state.root,)) + b"".join(key_of(g) for g in state.grids)
        if key in self.seen:
            return
        self.seen.add(key)
        index = len(self.states)
        self.states.append(state)
        closeness = -self.task.closeness(state)
        for tier in () if state.last else _TIERS:
            heapq.heappush(self.frontier, (state.cost + tier, closeness, index, tier))
        candidate = self.task.fit(state) if check else None
        if candidate is not None:
            self.found.append((candidate.program.cost, len(self.found), candidate))
            cost = candidate.program.cost
            self.best = cost if self.best is None else min(self.best, cost)

    def _ops(self, state: _State, tier: int) -> tuple[Op, ...]:
        task = self.task
        demo_grids = state.grids[: task.n]
        if any(g.shape != o.shape for g, o in zip(demo_grids, task.outputs, strict=True)):
            ops = _OPS_BY_SHAPES["any"][tier]
            return ops + task.windows if tier == WINDOW_COST else ops
        # The state already has the outputs' shapes: only steps that keep a shape can help.
        square = all(g.shape[0] == g.shape[1] for g in demo_grids)
        return _OPS_BY_SHAPES["square" if square else "same"][tier]

    def run(self) -> None:
        """Expand states cheapest first until the budget, the time cap or the frontier runs out."""
        while self.frontier:
            priority, _, index, tier = heapq.heappop(self.frontier)
            if self.best is not None and priority > self.best + SLACK:
                return
            state = self.states[index]
            for op in self._ops(state, tier):
                if self.applications >= self.budget:
                    self.exhausted = True
                    return
                if self.applications % _CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
                    self.timed_out = True
                    logger.warning(
                        "program search hit its %.1f s time cap after %d applications",
                        self.time_cap,
                        self.applications,
                    )
                    return
                self.applications += 1
                child = _apply(op, state, self.task.contexts[state.root])
                if child is not None:
                    self.add(child)


def search(
    demos: Sequence[Pair],
    test_input: Grid,
    *,
    budget: int = DEFAULT_BUDGET,
    time_cap: float = 30.0,
    max_candidates: int = 32,
) -> SearchResult:
    """Search for programs that turn every demonstration input into its output.

    A pure, deterministic function of its arguments (unless the time cap fires).

    Args:
        demos: the demonstrations, as (input, output) pairs.
        test_input: the grid to answer; every candidate must run on it.
        budget: the most primitive applications to spend.
        time_cap: seconds after which the search stops anyway (logged as a warning).
        max_candidates: the most candidates to return.

    Returns:
        The candidates, cheapest first, and what the search spent.
    """
    task = _Task(demos, test_input)
    run = _Search(task, budget, time_cap)
    run.add(_State((), task.inputs, 0, 0))
    if len(task.contexts) > 1:
        run.add(_State((ZERO_BG,), task.inputs, 1, 1), check=False)
    run.run()
    run.found.sort(key=lambda item: (item[0], item[1]))
    return SearchResult(
        candidates=tuple(c for _, _, c in run.found[:max_candidates]),
        applications=run.applications,
        budget_exhausted=run.exhausted,
        hit_time_cap=run.timed_out,
    )
