"""Budgeted searches over a game's abstract state, shared by the solvers.

A solver models its level as a hashable state and a successor function that yields ``(move, next
state)`` pairs; these searches return the moves of a shortest path to a goal state, or None when the
budget of node expansions runs out first. Counting expansions (not seconds) keeps solving
deterministic on any machine.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from .base import Move

__all__ = ["astar", "bfs"]

S = TypeVar("S", bound=Hashable)
Successors = Callable[[S], Iterable[tuple[Move, S]]]


def _path(parents: dict[S, tuple[S, Move] | None], goal: S) -> tuple[Move, ...]:
    moves: list[Move] = []
    link = parents[goal]
    while link is not None:
        state, move = link
        moves.append(move)
        link = parents[state]
    return tuple(reversed(moves))


def bfs(
    start: S, successors: Successors[S], is_goal: Callable[[S], bool], budget: int
) -> tuple[Move, ...] | None:
    """A shortest move sequence from ``start`` to a goal state, expanding at most ``budget`` states.

    Successors are tried in the order given, so ties between equally short paths break the same way
    on every run.
    """
    if is_goal(start):
        return ()
    parents: dict[S, tuple[S, Move] | None] = {start: None}
    frontier: deque[S] = deque([start])
    expanded = 0
    while frontier and expanded < budget:
        state = frontier.popleft()
        expanded += 1
        for move, nxt in successors(state):
            if nxt in parents:
                continue
            parents[nxt] = (state, move)
            # Testing on generation is safe for unit-cost moves and saves a whole layer of expansions.
            if is_goal(nxt):
                return _path(parents, nxt)
            frontier.append(nxt)
    return None


def astar(
    start: S,
    successors: Successors[S],
    is_goal: Callable[[S], bool],
    heuristic: Callable[[S], int],
    budget: int,
) -> tuple[Move, ...] | None:
    """A* with unit move costs: shortest when ``heuristic`` never overestimates the moves left.

    Ties on f are broken by larger g (deeper first), then by insertion order, which is deterministic.
    """
    best: dict[S, int] = {start: 0}
    parents: dict[S, tuple[S, Move] | None] = {start: None}
    counter = 0
    heap: list[tuple[int, int, int, S]] = [(heuristic(start), 0, counter, start)]
    expanded = 0
    while heap and expanded < budget:
        _, neg_g, _, state = heapq.heappop(heap)
        g = -neg_g
        if g > best[state]:
            continue  # a stale entry: the state was reached more cheaply since
        if is_goal(state):
            return _path(parents, state)
        expanded += 1
        for move, nxt in successors(state):
            if g + 1 >= best.get(nxt, g + 2):
                continue
            best[nxt] = g + 1
            parents[nxt] = (state, move)
            counter += 1
            heapq.heappush(heap, (g + 1 + heuristic(nxt), -(g + 1), counter, nxt))
    return None
