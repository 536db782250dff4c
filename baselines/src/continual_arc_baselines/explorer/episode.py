"""The explorer on one level: which action next, and what each feedback and demonstration teaches.

The policy, in order, on each observation:

1. read any demonstration bought since the last action (its moves count as winning ones; its
   frames show which colour moves, how far each action moves it, and what colour a win covers);
2. at the start of an attempt on a game it has never won, once ``stuck_attempts`` attempts have
   failed, buy a demonstration, and one more after each further failure (up to ``max_demos``);
   a game it has won buys none (what a demonstration teaches, its own wins taught);
3. follow the route being walked, if any;
4. try the best untried candidate of the current frame (simple actions, and clicks on its blobs,
   scored by what the game's notes say: how often the action changed the frame, lost, or was part
   of a win, and whether it moves the mover toward the goal colour);
5. else walk the known graph to the frontier frame of least cost (distance, plus the mover's
   distance to the goal colour when both are known, minus ``depth_weight`` times the frame's depth
   from the start on a game known to lose, so that such a game is searched deep first: past the
   moves that went right rather than among the first frame's other, possibly losing, moves),
   within what is left of the attempt;
6. else start a new attempt (RESET) if a frontier is within reach of the start; else widen the
   candidates (every blob, any number) once; else buy a demonstration; else give up.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TypedDict

import numpy as np

from continual_arc.env import (
    GameAction,
    GameDemo,
    GameFeedback,
    GameMove,
    GameObservation,
    GameReply,
    GiveUp,
    RequestDemos,
)

from ..json_types import JSONObject
from .frames import Blobs, blobs, centroid, changed_before, decode, moved_colour, nearest_cell
from .graph import LOSS, Key, LevelGraph
from .notes import GameNotes

__all__ = ["Episode", "ExplorerKnobs", "ExplorerSettings", "knob_names"]

_NOT_CLICKED = -1


class ExplorerKnobs(TypedDict, total=False):
    """The explorer's knobs, as keywords: what a learner built on it takes (`ExplorerSettings`).

    The one declaration of the knobs' names and types. `ExplorerSettings` holds them with their
    defaults and is built from these keywords, so the type checker refuses a knob here that it
    lacks, or of another type; `knob_names` checks the other way (a setting missing here).
    """

    max_clicks: int
    stuck_attempts: int
    max_demos: int
    goal_weight: float
    depth_weight: float


@dataclass(frozen=True)
class ExplorerSettings:
    """The explorer's knobs with their defaults, built from `ExplorerKnobs` by `of`.

    Attributes:
        max_clicks: click candidates listed per frame before widening (the rarest blobs first).
        stuck_attempts: failed attempts on a game never won before a demonstration is bought.
        max_demos: demonstrations bought at most per instance.
        goal_weight: the weight of the mover's distance to the goal, in moves, in a frontier's cost.
        depth_weight: on a game known to lose, what a frontier's depth from the start (in moves)
            takes off its cost.
    """

    max_clicks: int = 40
    stuck_attempts: int = 2
    max_demos: int = 3
    goal_weight: float = 1.0
    depth_weight: float = 2.0

    @classmethod
    def of(cls, knobs: ExplorerKnobs) -> ExplorerSettings:
        """The settings the keywords give, each knob not given at its default."""
        return cls(**knobs)


def knob_names() -> tuple[frozenset[str], frozenset[str]]:
    """The knobs' names as `ExplorerKnobs` declares them, and as `ExplorerSettings` holds them.

    Equal while the two agree (a test holds them to it): the type checker sees only that every
    keyword is a setting, not that every setting can be given as a keyword.
    """
    return frozenset(ExplorerKnobs.__annotations__), frozenset(f.name for f in fields(ExplorerSettings))


def to_action(key: Key) -> GameAction:
    """The game action of a graph key."""
    name, x, y = key
    return GameAction(name, x, y) if x != _NOT_CLICKED else GameAction(name)


def to_key(action: GameAction) -> Key:
    """The graph key of a game action."""
    if action.x is None or action.y is None:
        return (action.action, _NOT_CLICKED, _NOT_CLICKED)
    return (action.action, action.x, action.y)


class Episode:
    """The explorer's working notes on one instance (one level of one game).

    Args:
        prior: what the game's notes held when the round began (read, never changed here).
        settings: the explorer's knobs.
    """

    def __init__(self, prior: GameNotes, settings: ExplorerSettings) -> None:
        self.prior = prior
        self.settings = settings
        self.notes = GameNotes(plays=1)
        self.graph = LevelGraph()
        self.plan: list[Key] = []
        self.path: list[tuple[str, Key]] = []
        self.demos_read = 0
        self.widened = False
        self.expect: str | None = None
        self._grids: dict[str, np.ndarray] = {}
        self._blobs: dict[str, Blobs] = {}
        self._goal: dict[str, tuple[float, float] | None] = {}
        self._known: GameNotes | None = None
        self._depth: dict[str, int] = {}
        # A game known to lose on wrong moves is searched deep first: a frame past a right move is
        # worth more than the start's other moves, each a possible loss (a failed attempt).
        self.deep = settings.depth_weight if prior.loses else 0.0
        self.routes = 0  # plans walked to a frontier
        self.resets = 0  # attempts restarted to reach a frontier from the start

    @property
    def log(self) -> JSONObject:
        """How the search went: plans walked, restarts, whether the candidates were widened."""
        return {"routes": self.routes, "resets": self.resets, "widened": self.widened}

    # -- what the explorer knows ------------------------------------------------------------------

    @property
    def known(self) -> GameNotes:
        """The prior and this instance's notes together (rebuilt after each change)."""
        if self._known is None:
            known = GameNotes()
            known.merge(self.prior)
            known.merge(self.notes)
            self._known = known
        return self._known

    def grid(self, state: str) -> np.ndarray:
        """The decoded frame of a state (kept)."""
        if state not in self._grids:
            self._grids[state] = decode(state)
        return self._grids[state]

    def name(self, key: Key, state: str) -> str:
        """The notes' name of an action from a state: its name, or the clicked blob's colour and size."""
        action, x, y = key
        if x == _NOT_CLICKED:
            return action
        return _click_name(self._blobs_of(state), x, y)

    def _blobs_of(self, state: str) -> Blobs:
        if state not in self._blobs:
            self._blobs[state] = blobs(self.grid(state))
        return self._blobs[state]

    # -- choosing ---------------------------------------------------------------------------------

    def act(self, obs: GameObservation) -> GameAction | RequestDemos | GiveUp:
        """The next action (see the module docstring)."""
        self._read_demos(obs.demos)
        state = obs.frame
        if self.graph.start is None:
            self.graph.start = state
        if not self.graph.knows(state):
            self.graph.add_state(state, self._candidates(state, obs))
        if self._wants_demo(obs):
            return RequestDemos()
        key = self._next(state, obs)
        if key is None and obs.attempt_actions > 0 and self._start_has_frontier(obs):
            self.plan = []
            self.resets += 1
            return GameAction("RESET")
        if key is None and not self.widened:
            self._widen(obs)
            key = self._next(state, obs)
        if key is None:
            if obs.demos_used < obs.demo_cap and obs.demos_used < self.settings.max_demos:
                return RequestDemos()
            return GiveUp()
        self.expect = self.graph.edges.get(state, {}).get(key)
        return to_action(key)

    def _next(self, state: str, obs: GameObservation) -> Key | None:
        if self.plan:
            return self.plan.pop(0)
        left = obs.attempt_action_cap - obs.attempt_actions
        self._depth = self.graph.depths() if self.deep else {}
        found = self.graph.route(state, left - 1, self._cost if self.deep or self._goal_known() else None)
        if found is None:
            return None
        path, _ = found
        if not path:
            untried = self.graph.untried(state)
            return max(untried, key=lambda k: (self._score(k, state), -untried.index(k)))
        self.routes += 1
        self.plan = path[1:]
        return path[0]

    def _start_has_frontier(self, obs: GameObservation) -> bool:
        start = self.graph.start
        return start is not None and self.graph.route(start, obs.attempt_action_cap - 1) is not None

    def _goal_known(self) -> bool:
        mover, goal = self.known.mover_colour, self.known.goal_colour
        return mover is not None and goal is not None and mover != goal

    def _wants_demo(self, obs: GameObservation) -> bool:
        if obs.attempt_actions or obs.demos_used >= min(obs.demo_cap, self.settings.max_demos):
            return False
        stuck = self.settings.stuck_attempts
        if self.prior.wins:  # a game it has won: it knows what the demonstrations would teach
            return False
        return obs.attempts_used - stuck >= obs.demos_used

    def _score(self, key: Key, state: str) -> float:
        """How promising an untried action is: it changes things, wins, does not lose, heads for the goal."""
        tried, changed, lost, won = self.known.keys.get(self.name(key, state), (0.0, 0.0, 0.0, 0.0))
        score = (changed + 1) / (tried + 2) + 0.5 * min(won, 4.0) / 4.0
        if not won:  # an action that lost but also won is a choice to make, not one to shun
            score -= 2.0 * lost / (tried + 1)
        return score + self._heading(key, state)

    def _heading(self, key: Key, state: str) -> float:
        """The cosine between the way the action moves the mover and the way to the goal."""
        step = self.known.step(key[0]) if key[1] == _NOT_CLICKED else None
        goal = self._goal_vector(state)
        if step is None or goal is None:
            return 0.0
        norm = (step[0] ** 2 + step[1] ** 2) ** 0.5 * (goal[0] ** 2 + goal[1] ** 2) ** 0.5
        return (step[0] * goal[0] + step[1] * goal[1]) / norm if norm else 0.0

    def _cost(self, state: str, distance: int) -> float:
        near = distance - self.deep * self._depth.get(state, 0)
        goal = self._goal_vector(state) if self._goal_known() else None
        if goal is None:
            return near
        moves = [s for s in (self.known.step(a) for a in self.known.moves) if s is not None]
        size = max(1.0, float(np.mean([abs(dx) + abs(dy) for dx, dy in moves]))) if moves else 1.0
        return near + self.settings.goal_weight * (abs(goal[0]) + abs(goal[1])) / size

    def _goal_vector(self, state: str) -> tuple[float, float] | None:
        """The way from the mover to the nearest cell of the goal colour, when both are known."""
        if state not in self._goal:
            mover, goal = self.known.mover_colour, self.known.goal_colour
            vector = None
            if mover is not None and goal is not None and mover != goal:
                grid = self.grid(state)
                at = centroid(grid, mover)
                vector = None if at is None else nearest_cell(grid, at, goal)
            self._goal[state] = vector
        return self._goal[state]

    def _candidates(self, state: str, obs: GameObservation) -> list[Key]:
        keys: list[Key] = [
            (a, _NOT_CLICKED, _NOT_CLICKED) for a in obs.available_actions if a not in ("RESET", "ACTION6")
        ]
        if "ACTION6" in obs.available_actions:
            found = self._blobs_of(state).found
            if not self.widened and len(found) > 1:
                largest = max(found, key=lambda b: b.size)
                found = [b for b in found if b is not largest]
                found = sorted(found, key=lambda b: (b.size, b.y, b.x))[: self.settings.max_clicks]
            keys += [("ACTION6", b.x, b.y) for b in found]
        return keys

    def _widen(self, obs: GameObservation) -> None:
        """List every blob of every frame seen as a click candidate, once the usual ones ran out."""
        self.widened = True
        for state in list(self.graph.candidates):
            self.graph.add_state(state, self._candidates(state, obs))

    # -- learning ---------------------------------------------------------------------------------

    def observe(self, obs: GameObservation, action: GameMove, feedback: GameReply) -> None:
        """Take one feedback: the transition into the graph and the notes."""
        if not isinstance(action, GameAction) or not isinstance(feedback, GameFeedback):
            return
        if action.action == "RESET":
            self.plan, self.path = [], []
            return
        state, key = obs.frame, to_key(action)
        after = feedback.frames[-1]
        outcome = LOSS if feedback.ended == "lost" else after
        if self.expect is not None and self.expect != outcome:
            self.plan = []
        self.graph.record(state, key, outcome)
        if feedback.ended is not None and outcome != LOSS and not self.graph.knows(after):
            # A frame the attempt ended on (its action cap) is never shown in an observation, as
            # the next one opens the level again: list it here, or no later attempt goes past it.
            self.graph.add_state(after, self._candidates(after, obs))
        self._learn_step(state, key, after, lost=feedback.ended == "lost")
        self.path.append((state, key))
        if feedback.ended == "won":
            self._learn_win(self.path, after)
        if feedback.ended is not None:
            self.plan, self.path = [], []

    def _learn_step(self, state: str, key: Key, after: str, lost: bool) -> None:
        name = self.name(key, state)
        self.notes.count(name, 0)
        if lost:
            self.notes.count(name, 2)
        if after != state and not lost:
            self.notes.count(name, 1)
            if key[1] == _NOT_CLICKED:
                _learn_move(self.notes, self.known.mover_colour, key[0], self.grid(state), decode(after))
        self._known = None
        self._goal.clear()

    def _learn_win(self, path: list[tuple[str, Key]], after: str) -> None:
        self.notes.wins += 1
        self.notes.win_lengths.append(len(path))
        for state, key in path:
            self.notes.count(self.name(key, state), 3)
        last = path[-1][0]
        _learn_goal(self.notes, self.known.mover_colour, self.grid(last), decode(after))
        self._known = None

    def _read_demos(self, demos: tuple[GameDemo, ...]) -> None:
        for demo in demos[self.demos_read :]:
            self.notes.demos += 1
            self._learn_demo(demo)
        if len(demos) > self.demos_read:
            self.demos_read = len(demos)
            self._known = None
            self._goal.clear()

    def _learn_demo(self, demo: GameDemo) -> None:
        grids = [decode(text) for text in demo.states]
        self._learn_demo_moves(demo, grids)
        self.notes.win_lengths.append(len(demo.actions))
        self._known = None
        if len(grids) > 1:
            _learn_goal(self.notes, self.known.mover_colour, grids[-2], grids[-1])

    def _learn_demo_moves(self, demo: GameDemo, grids: list[np.ndarray]) -> None:
        for i, action in enumerate(demo.actions):
            before, after = grids[i], grids[i + 1]
            if action.x is None or action.y is None:
                name = action.action
                _learn_move(self.notes, None, name, before, after)
            else:
                name = _click_name(blobs(before), action.x, action.y)
            self.notes.count(name, 0)
            self.notes.count(name, 3)
            if not np.array_equal(before, after):
                self.notes.count(name, 1)


def _click_name(found: Blobs, x: int, y: int) -> str:
    """A click's name in the notes: the colour and size of the blob clicked."""
    blob = found.at(x, y)
    return f"c{blob.colour}s{blob.size}"


def _learn_move(
    notes: GameNotes, mover: int | None, action: str, before: np.ndarray, after: np.ndarray
) -> None:
    """Vote for the colour that moved, and note how far it went."""
    moved = moved_colour(before, after)
    if moved is None:
        return
    notes.mover[str(moved)] = notes.mover.get(str(moved), 0.0) + 1.0
    colour = moved if mover is None else mover
    start, end = centroid(before, colour), centroid(after, colour)
    if start is not None and end is not None:
        notes.moved(action, end[0] - start[0], end[1] - start[1])


def _learn_goal(notes: GameNotes, mover: int | None, before: np.ndarray, after: np.ndarray) -> None:
    """Vote for the colour a winning move covered (the rarest changed colour that is not the mover)."""
    skip = {mover, moved_colour(before, after), notes.mover_colour}
    colours = [c for c in changed_before(before, after) if c not in skip]
    if colours:
        notes.goal[str(colours[0])] = notes.goal.get(str(colours[0]), 0.0) + 1.0
