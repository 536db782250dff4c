"""The arc3 track's task source: a game id and an instance seed give a fresh level its solver solved.

An instance is a level of the game drawn by `draw_level` from the seed parts
``("arc3", seed, "level")`` at its served difficulty
([`served_difficulty`][continual_arc.tracks.arc3.levels.served_difficulty]: rising with the user's exposure to
the game on the stream, drawn from the seed on a test) and in its phase's half of the game's levels
([`in_test_half`][continual_arc.tracks.arc3.levels.in_test_half]): the draw redraws until the level lies in
that half and the game's solver wins it, and replays the winning plan in the engine, so no level is ever
served unsolved. Demonstration ``k`` is a further level of the same game, difficulty and half
(``("arc3", seed, "demo", j)`` for the first ``j`` that gives a level distinct from the instance's own and
from demonstrations 0 to ``k - 1``), played by the solver frame by frame. Demonstrations are drawn only when
bought, and demonstration ``k`` never depends on how many are asked for.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import version
from typing import Any

from continual_arc_games import GAMES, GameSpec, Level, Move
from continual_arc_games.draw import DrawError, GameModelError, draw_level
from continual_arc_games.session import Session

from ...core.errors import HarnessFault
from ...core.games import GameAction, GameDemo
from ..sources import DEMO_CAP, UnknownTaskError
from .frames import FrameTexts
from .levels import SERVED_DIFFICULTIES, in_test_half, is_test_seed, served_difficulty

__all__ = ["GAME_DATA_VERSION", "GameInstance", "GameSource", "LevelDrawError", "play_plan"]

GAME_DATA_VERSION = "6"
"""The version of how instances are drawn from seeds (seed parts, difficulty, demonstrations)."""

_DEMO_DRAWS = 64
"""Draws tried for one demonstration before giving up (a game with so few levels is a bug)."""


_DEMO_SUPPLIES = 128
"""Instances whose demonstrations are kept in memory (the oldest are dropped; they redraw alike)."""


class LevelDrawError(HarnessFault):
    """No level could be drawn, or a solver's plan did not win it: the game's fault, not the learner's."""


@dataclass(frozen=True)
class GameInstance:
    """One instance of a game: a level its solver won, and a supply of demonstrations drawn when bought.

    Attributes:
        source: the name of the source that served it.
        task_id: the game's id.
        seed: the instance seed.
        difficulty: the difficulty its levels are drawn at.
        level: the level the learner plays.
        plan: the solver's winning plan for it (never shown to the learner; empty for a public game's
            level, which has no solver).
        demo_cap: how many demonstrations the instance offers.
        game: the game, when it is not one of `GAMES` (a public game's).
        baseline: a human's action count for the level, when its source knows one (a public game's).
    """

    source: str
    task_id: str
    seed: int
    difficulty: int
    level: Level
    plan: tuple[Move, ...]
    demo_cap: int
    _supply: Callable[[int], GameDemo] = field(repr=False, compare=False)
    game: GameSpec | None = field(default=None, repr=False, compare=False)
    baseline: int | None = None

    @property
    def spec(self) -> GameSpec:
        """The game."""
        return GAMES[self.task_id] if self.game is None else self.game

    def demonstration(self, index: int) -> GameDemo:
        """Demonstration ``index`` (from 0); the same whenever it is asked for.

        Raises:
            IndexError: ``index`` is not below `demo_cap`.
        """
        if not 0 <= index < self.demo_cap:
            raise IndexError(f"demonstration {index} of {self.task_id}: the instance offers {self.demo_cap}")
        return self._supply(index)


def play_plan(spec: GameSpec, level: Level, plan: Sequence[Move], texts: FrameTexts) -> GameDemo:
    """The solver's play of ``level`` as a demonstration: its actions and every frame they rendered.

    Raises:
        LevelDrawError: the plan does not win the level in the engine.
    """
    session = Session(spec, level)
    groups = [texts.encode_all(session.frames or (session.frame,))]
    for move in plan:
        session.step(move)
        groups.append(texts.encode_all(session.frames or (session.frame,)))
    if not session.won:
        raise LevelDrawError(f"{spec.id}: the solver's plan does not win {level.to_json()}")
    actions = tuple(GameAction(m.action, m.x, m.y) for m in plan)
    return GameDemo(actions, tuple(groups))


_SUBDRAWS = 64
"""Sub-draws tried for a level: twice the draw's default, as half the levels lie in the other half."""


def _draw(
    spec: GameSpec, parts: tuple[str | int, ...], difficulty: int, test_half: bool | None = None
) -> tuple[Level, tuple[Move, ...]]:
    """A level and its plan; in the test half (``True``), the other (``False``) or either (``None``)."""
    accept = None if test_half is None else (lambda level: in_test_half(level) == test_half)
    try:
        return draw_level(spec, parts, difficulty, max_subdraws=_SUBDRAWS, accept=accept)
    except (DrawError, GameModelError) as err:
        raise LevelDrawError(str(err)) from err


class _DemoSupply:
    """The demonstrations of one instance drawn so far, and where the next draw starts."""

    def __init__(self, spec: GameSpec, seed: int, level: Level, test_half: bool | None) -> None:
        self.spec, self.seed, self.test_half = spec, seed, test_half
        self.seen = {level}
        self.demos: list[GameDemo] = []
        self.draws = 0
        self.texts = FrameTexts()

    def get(self, index: int, difficulty: int) -> GameDemo:
        while len(self.demos) <= index:
            if self.draws >= _DEMO_DRAWS * (index + 1):
                raise LevelDrawError(
                    f"{self.spec.id}: no level distinct from the earlier ones for demonstration {index}"
                )
            level, plan = _draw(
                self.spec, ("arc3", self.seed, "demo", self.draws), difficulty, self.test_half
            )
            self.draws += 1
            if level not in self.seen:
                self.seen.add(level)
                self.demos.append(play_plan(self.spec, level, plan, self.texts))
        return self.demos[index]


class GameSource:
    """Fresh levels of a set of games, drawn from instance seeds (a generative source).

    Args:
        name: the registry name (``"arc3/stream"``, ...).
        game_ids: the games served.
        difficulty: one difficulty for every level, in either half (benchmarks, tests); by default
            (``None``) each level's served difficulty and its phase's half
            ([`levels`][continual_arc.tracks.arc3.levels]).
        cache_size: instances kept in memory.
    """

    kind = "generative"

    def __init__(
        self, name: str, game_ids: Sequence[str], difficulty: int | None = None, cache_size: int = 1024
    ) -> None:
        unknown = sorted(set(game_ids) - set(GAMES))
        if unknown:
            raise ValueError(f"source {name}: no games {unknown}")
        self.name = name
        self.difficulty = difficulty
        self._ids = tuple(sorted(game_ids))
        self._levels = lru_cache(maxsize=cache_size)(self._draw_level)
        self._demos: OrderedDict[tuple[str, int, int], _DemoSupply] = OrderedDict()
        self._lock = threading.Lock()

    def task_ids(self) -> tuple[str, ...]:
        """Every game id this source serves, sorted."""
        return self._ids

    def _draw_level(
        self, task_id: str, seed: int, difficulty: int, test_half: bool | None
    ) -> tuple[Level, tuple[Move, ...]]:
        return _draw(GAMES[task_id], ("arc3", seed, "level"), difficulty, test_half)

    def placement(self, task_id: str, seed: int, exposure: int = 0) -> tuple[int, bool | None]:
        """The difficulty of instance ``seed`` and the half it is drawn from (``None``: either)."""
        if self.difficulty is not None:
            return self.difficulty, None
        return served_difficulty(task_id, seed, exposure), is_test_seed(seed)

    def instance(self, task_id: str, seed: int, exposure: int = 0) -> GameInstance:
        """Instance ``seed`` of a game, its user having met it ``exposure`` times: level and demonstrations.

        Raises:
            UnknownTaskError: the source does not serve ``task_id``.
            LevelDrawError: no level could be drawn (the game's fault).
        """
        if task_id not in self._ids:
            raise UnknownTaskError(f"source {self.name} does not serve game {task_id!r}")
        difficulty, test_half = self.placement(task_id, seed, exposure)
        level, plan = self._levels(task_id, seed, difficulty, test_half)
        return GameInstance(
            self.name,
            task_id,
            seed,
            difficulty,
            level,
            plan,
            DEMO_CAP,
            lambda index: self._demonstration(task_id, seed, level, difficulty, test_half, index),
        )

    def _demonstration(
        self, task_id: str, seed: int, level: Level, difficulty: int, test_half: bool | None, index: int
    ) -> GameDemo:
        """Demonstration ``index``: drawn in order, each level unlike the instance's and the earlier ones."""
        with self._lock:
            key = (task_id, seed, difficulty)
            supply = self._demos.get(key)
            if supply is None:
                supply = self._demos[key] = _DemoSupply(GAMES[task_id], seed, level, test_half)
                if len(self._demos) > _DEMO_SUPPLIES:  # pure draws: an evicted supply is drawn again alike
                    self._demos.popitem(last=False)
            # Under the lock: a demonstration is a few milliseconds, and two users never share an instance.
            return supply.get(index, difficulty)

    def describe(self) -> dict[str, Any]:
        """The source's name, kind and versions (the engine's and the games'), and its difficulties."""
        return {
            "name": self.name,
            "kind": self.kind,
            "versions": game_versions(),
            "difficulty": self.difficulty if self.difficulty is not None else "served",
            "served_difficulties": {game: list(SERVED_DIFFICULTIES[game]) for game in self._ids},
        }


def game_versions() -> dict[str, str]:
    """The versions a run records: the engine's, and this track's way of drawing instances."""
    return {"arcengine": version("arcengine"), "arc3-instances": GAME_DATA_VERSION}
