"""The level as the explorer has seen it: frames as states, actions as edges, and the ways to a frontier.

A level plays the same from its start on every attempt, so what one attempt learnt (this action
from that frame gives this frame, or loses) holds on the next. `LevelGraph` keeps it: each
state (a frame's text) has its candidate actions in order of preference, and the outcome of each
one tried. `LevelGraph.route` finds, by breadth-first search over the known edges, the
cheapest way to a state that still has an untried candidate, avoiding moves that lost.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

__all__ = ["LOSS", "Key", "LevelGraph"]

Key = tuple[str, int, int]
"""An action as the graph knows it: its name and, for a click, its cell (else -1, -1)."""

LOSS = "<loss>"
"""The outcome of an action that lost the level."""


class LevelGraph:
    """States and known transitions of one level."""

    def __init__(self) -> None:
        self.start: str | None = None
        self.edges: dict[str, dict[Key, str]] = {}
        self.candidates: dict[str, list[Key]] = {}
        self._open: set[str] = set()

    def knows(self, state: str) -> bool:
        """Whether the state's candidates have been listed."""
        return state in self.candidates

    def add_state(self, state: str, candidates: list[Key]) -> None:
        """List a state's candidates, best first (a state listed again keeps its outcomes)."""
        self.candidates[state] = candidates
        done = self.edges.setdefault(state, {})
        if any(key not in done for key in candidates):
            self._open.add(state)
        else:
            self._open.discard(state)

    def record(self, state: str, key: Key, outcome: str) -> None:
        """Note that ``key`` from ``state`` gave ``outcome`` (a state, or `LOSS`)."""
        self.edges.setdefault(state, {})[key] = outcome
        if state in self._open and not self.untried(state):
            self._open.discard(state)

    def untried(self, state: str) -> list[Key]:
        """The state's candidates not tried yet, best first."""
        done = self.edges.get(state, {})
        return [key for key in self.candidates.get(state, ()) if key not in done]

    def depths(self) -> dict[str, int]:
        """Each known state's fewest actions from the start, over moves that did not lose."""
        if self.start is None:
            return {}
        found = {self.start: 0}
        queue = deque([self.start])
        while queue:
            state = queue.popleft()
            for outcome in self.edges.get(state, {}).values():
                if outcome != LOSS and outcome not in found:
                    found[outcome] = found[state] + 1
                    queue.append(outcome)
        return found

    def route(
        self, source: str, limit: int, cost: Callable[[str, int], float] | None = None
    ) -> tuple[list[Key], str] | None:
        """The way to the frontier state of least ``cost(state, distance)``, within ``limit`` actions.

        A frontier state has an untried candidate (``source`` itself may be one, at distance 0);
        moves that lost, or that change nothing, are never taken. Without ``cost`` the nearest
        frontier is taken. Returns the actions and the state they lead to, or ``None`` when no
        frontier is within reach. Ties go to the state found first (breadth-first, in the order
        the moves were first tried).
        """
        parents: dict[str, tuple[str, Key] | None] = {source: None}
        queue = deque([(source, 0)])
        best: tuple[float, str] | None = None
        while queue:
            state, distance = queue.popleft()
            if state in self._open:
                if cost is None:
                    return _path(parents, state), state
                score = cost(state, distance)
                if best is None or score < best[0]:
                    best = (score, state)
            if distance >= limit:
                continue
            for key, outcome in self.edges.get(state, {}).items():
                if outcome == LOSS or outcome in parents:
                    continue
                parents[outcome] = (state, key)
                queue.append((outcome, distance + 1))
        if best is None:
            return None
        return _path(parents, best[1]), best[1]


def _path(parents: dict[str, tuple[str, Key] | None], target: str) -> list[Key]:
    steps: list[Key] = []
    at = parents[target]
    while at is not None:
        state, key = at
        steps.append(key)
        at = parents[state]
    return steps[::-1]
