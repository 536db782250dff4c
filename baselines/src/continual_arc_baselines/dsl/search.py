"""Enumerative program search, cheapest programs first, bounded by a count of primitive applications.

A *state* (`fitting.State`) is the list of grids a partial program makes from every
demonstration input and the test input, together. A state is new only if its bytes are
(deduplication), and exists only if the step applied to all of its grids. Each new state is
checked for a fit (`fitting.Task.fit`); a fit is a candidate. Under ``nearfit`` a state that
misses a few cells of one demonstration is a near candidate, kept apart: it never ends the search
and is returned only when no state fits exactly.

Costs are description lengths in bits under a `prior.Prior`: the empty prior gives every
step its hand-set cost; a learned one makes the steps and runs of steps (macros) that answered
before cheaper. Expansion is best first over (state, step) pairs: every state walks its steps
cheapest first, and the pair with the lowest ``state cost + step cost`` goes next, less a bonus for
states that already explain much of the outputs (`fitting.Task.explained`). The search
stops once nothing left can be cheaper than the best fit.

Cuts keep the frontier small: a state with the outputs' shapes meets only shape-keeping steps; a
state larger than every output on both sides meets no step that only grows a grid, and one smaller
than every output no step that only shrinks; nothing follows a rotation or reflection (they
commute with nearly everything, so they are tried last). Besides the plain root there is a
``bg0`` root, whose background is colour 0, when some input has a 0 that is not its most frequent
colour.

The budget counts primitive applications (one step on one state; a macro spends one per step it
holds), never seconds, so the same call gives the same answer on any machine; ``time_cap`` is only
a safety net.
"""

from __future__ import annotations

import dataclasses
import heapq
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from continual_arc.grids import Grid, Pair

from .catalogue import Catalogue
from .family import Op
from .fitting import Candidate, State, Task
from .grid import key_of
from .ops import DEFAULT
from .prior import Prior, token
from .program import ZERO_BG

__all__ = ["BONUS", "DEFAULT_BUDGET", "STEP_BITS", "SearchResult", "search"]

logger = logging.getLogger(__name__)

DEFAULT_BUDGET = 1800
"""Primitive applications a search may spend by default."""

STEP_BITS = 2.0
"""Bits every step of a program costs besides its own cost: the price of one more token. It keeps
a learnt prior's cheap steps from chaining deep before the search has tried one step of each kind."""

BONUS = 1.0
"""Bits taken off a state's priority per unit of the share of the outputs it explains."""

_CLOCK_EVERY = 64

_MAX_NEAR = 64
"""The most near candidates a search keeps (the first found; they are answered only when no exact
candidate is)."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found and what it spent.

    Attributes:
        candidates: fitting programs that run on the test input, cheapest first under the prior
            (ties in the order found); at most ``max_candidates``. When none fits and the
            catalogue has ``nearfit``, the near candidates (`fitting.Task.near_fit`) instead.
        applications: primitive applications spent.
        budget_exhausted: the search stopped because the budget ran out.
        hit_time_cap: the CPU-time safety net stopped it.
        first_fit: applications spent when the first exact candidate was found (``None``: none was,
            even when near candidates are returned).
    """

    candidates: tuple[Candidate, ...]
    applications: int
    budget_exhausted: bool
    hit_time_cap: bool
    first_fit: int | None = None


@dataclass(frozen=True)
class _Move:
    """One thing a state may meet: a step, or a macro of several."""

    ops: tuple[Op, ...]
    cost: float
    base: float
    shape: str
    last: bool


def _move(ops: tuple[Op, ...], cost: float) -> _Move:
    cost += STEP_BITS  # one token of the program, however many primitives it holds
    shapes = {op.shape for op in ops}
    shape = ops[0].shape if len(ops) == 1 else ("same" if shapes == {"same"} else "other")
    if len(ops) > 1 and shapes <= {"same", "square"} and shapes != {"same"}:
        shape = "square"
    return _Move(ops, cost, sum(op.cost for op in ops), shape, ops[-1].last)


def _moves(prior: Prior, fitted: tuple[Op, ...], catalogue: Catalogue) -> list[_Move]:
    """Every step and macro with its cost under the prior, cheapest first (ties: registry order)."""
    base_costs = catalogue.base_costs
    costs = prior.step_costs(base_costs)
    moves = [_move((op,), costs[op.text]) for op in catalogue.ops]
    for op in fitted:
        # A fitted step's cost grows with its constants; the prior moves it as it moves its token.
        name = token(op.text)
        moves.append(_move((op,), op.cost + costs.get(name, op.cost) - base_costs.get(name, op.cost)))
    by_token = catalogue.by_text
    for macro in prior.macros(costs):
        if all(step in by_token for step in macro.steps):
            moves.append(_move(tuple(by_token[s] for s in macro.steps), macro.cost))
    order = sorted(range(len(moves)), key=lambda i: (moves[i].cost, i))
    return [moves[i] for i in order]


_ALLOWED = {
    "matched": ("same", "square"),
    "matched_flat": ("same",),
    "any": ("same", "square", "grow", "shrink", "other"),
    "big": ("same", "square", "shrink", "other"),
    "small": ("same", "square", "grow", "other"),
}


class _Search:
    """The state of one search: the frontier, the states seen, the candidates and the spending."""

    def __init__(self, task: Task, prior: Prior, budget: int, time_cap: float) -> None:
        self.task = task
        self.budget = budget
        self.time_cap = time_cap
        # The searching thread's CPU time, not the wall clock: a loaded machine must not cut a search
        # short (that changed records under load); only a search gone pathological meets the cap.
        self.deadline = time.thread_time() + time_cap
        moves = _moves(prior, task.fitted_ops(), task.catalogue)
        self.moves = {kind: [m for m in moves if m.shape in allowed] for kind, allowed in _ALLOWED.items()}
        self.states: list[tuple[State, list[_Move]]] = []
        self.frontier: list[tuple[float, float, int, int]] = []
        self.seen: set[bytes] = set()
        self.found: list[tuple[float, int, Candidate]] = []
        # Near candidates (`fitting.Task.near_fit`): kept apart, they never end the search early.
        self.near: list[tuple[float, int, Candidate]] = []
        self.best: float | None = None
        self.first_fit: int | None = None
        self.applications = 0
        self.exhausted = self.timed_out = False

    def _kind(self, state: State) -> str:
        task = self.task
        demo = state.grids[: task.n]
        if task.shapes_match(state):
            return "matched" if all(g.shape[0] == g.shape[1] for g in demo) else "matched_flat"
        pairs = list(zip(demo, task.outputs, strict=True))
        if all(g.shape[0] >= o.shape[0] and g.shape[1] >= o.shape[1] for g, o in pairs):
            return "big"
        if all(g.shape[0] <= o.shape[0] and g.shape[1] <= o.shape[1] for g, o in pairs):
            return "small"
        return "any"

    def add(self, state: State, check: bool = True) -> None:
        """Record a state if it is new, check it for a fit, and schedule its expansion."""
        key = bytes((state.root,)) + b"".join(key_of(g) for g in state.grids)
        if key in self.seen:
            return
        self.seen.add(key)
        index = len(self.states)
        moves = [] if state.last else self.moves[self._kind(state)]
        self.states.append((state, moves))
        explained: float | None = None
        if moves:
            explained = self.task.explained(state)
            heapq.heappush(
                self.frontier, (state.cost + moves[0].cost - BONUS * explained, -explained, index, 0)
            )
        candidate = self.task.fit(state) if check else None
        # Once a state fits exactly no near candidate can answer, so none is looked for.
        if (
            candidate is None
            and check
            and self.task.nearfit
            and not self.found
            and len(self.near) < _MAX_NEAR
        ):
            near = self.task.near_fit(state, explained)
            if near is not None:
                near = dataclasses.replace(near, found_at=self.applications)
                self.near.append((near.cost, len(self.near), near))
        if candidate is not None:
            candidate = dataclasses.replace(candidate, found_at=self.applications)
            self.found.append((candidate.cost, len(self.found), candidate))
            self.best = candidate.cost if self.best is None else min(self.best, candidate.cost)
            if self.first_fit is None:
                self.first_fit = self.applications

    def _spend(self) -> bool:
        """Count one application; ``False`` when the budget or the time cap forbids it."""
        if self.applications >= self.budget:
            self.exhausted = True
            return False
        if self.applications % _CLOCK_EVERY == 0 and time.thread_time() > self.deadline:
            self.timed_out = True
            logger.warning(
                "program search hit its %.1f CPU-s time cap after %d applications",
                self.time_cap,
                self.applications,
            )
            return False
        self.applications += 1
        return True

    def _apply(self, move: _Move, state: State) -> State | bool | None:
        contexts = self.task.contexts[state.root]
        grids = state.grids
        for op in move.ops:
            if not self._spend():
                return False
            made = []
            for grid, ctx in zip(grids, contexts, strict=True):
                out = op(grid, ctx)
                if out is None:
                    return None
                made.append(out)
            grids = tuple(made)
        steps = (*state.steps, *(op.text for op in move.ops))
        return State(steps, grids, state.cost + move.cost, state.base + move.base, state.root, move.last)

    def run(self) -> None:
        """Expand (state, step) pairs best first until the budget, the time cap or the frontier runs out."""
        while self.frontier:
            priority, unexplained, index, at = heapq.heappop(self.frontier)
            if self.best is not None and priority > self.best:
                return  # the bonus is at most BONUS, so nothing left can beat the best fit
            state, moves = self.states[index]
            if at + 1 < len(moves):
                nxt = state.cost + moves[at + 1].cost + BONUS * unexplained
                heapq.heappush(self.frontier, (nxt, unexplained, index, at + 1))
            child = self._apply(moves[at], state)
            if child is False:
                return
            if isinstance(child, State):
                self.add(child)


def search(
    demos: Sequence[Pair],
    test_input: Grid,
    *,
    budget: int = DEFAULT_BUDGET,
    prior: Prior | None = None,
    time_cap: float = 30.0,
    max_candidates: int = 32,
    catalogue: Catalogue = DEFAULT,
) -> SearchResult:
    """Search for programs that turn every demonstration input into its output.

    A pure, deterministic function of its arguments (unless the time cap fires).

    Args:
        demos: the demonstrations, as (input, output) pairs.
        test_input: the grid to answer; every candidate must run on it.
        budget: the most primitive applications to spend.
        prior: what to try first (the empty prior by default).
        time_cap: CPU seconds of the searching thread after which the search stops anyway (logged
            as a warning); far above any search's need, so it fires only on a runaway search.
        max_candidates: the most candidates to return.
        catalogue: the steps it may take (`ops.CATALOGUES`); `ops.DEFAULT` unless named.

    Returns:
        The candidates, cheapest first, and what the search spent.
    """
    task = Task(demos, test_input, catalogue)
    run = _Search(task, prior or Prior.empty(), budget, time_cap)
    run.add(State((), task.inputs, 0.0, 0.0, 0))
    if len(task.contexts) > 1:
        run.add(State((ZERO_BG,), task.inputs, 1.0, 1.0, 1), check=False)
    run.run()
    run.found.sort(key=lambda item: (item[0], item[1]))
    if not run.found:
        # Near candidates answer only when nothing fits exactly, cheapest first.
        run.found = sorted(run.near, key=lambda item: (item[0], item[1]))
    return SearchResult(
        candidates=tuple(c for _, _, c in run.found[:max_candidates]),
        applications=run.applications,
        budget_exhausted=run.exhausted,
        hit_time_cap=run.timed_out,
        first_fit=run.first_fit,
    )
