"""ARC-AGI-3's public games, read from the folder ARC Prize's toolkit downloads them into.

ARC Prize's toolkit (the ``arc-agi`` package) downloads each public game with the user's API key
into a folder of its own layout: per game (and version) a ``metadata.json`` (``game_id`` such as
``ls20-<version>``, ``title``, ``baseline_actions``: a human's action count per level, ``class_name``)
beside the game's source, ``<class_name lowercased>.py``, which defines that class, an ``arcengine``
game of several fixed levels. [`read_public_games`][continual_arc_games.public.read_public_games] reads
such a folder and gives each game as a [`PublicGame`][continual_arc_games.public.PublicGame]: a game spec
whose levels are the game's own, one [`Level`][continual_arc_games.base.Level] each (the level's index
as its param ``index``), played alone in the engine. It draws no fresh level and has no solver: a
public game's level is read against its human baseline.

The source is the game's own Python, run as the toolkit runs it (in a module of its own): read only
a folder the toolkit wrote with the user's key.
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from arcengine import ARCBaseGame

from .base import ACTIONS, Level, Move

__all__ = ["PublicGame", "PublicGameError", "read_public_games"]


class PublicGameError(ValueError):
    """A public game's folder that cannot be read: the message names the file and what is wrong."""


@dataclass(frozen=True)
class PublicGame:
    """One public game: its fixed levels, its human baselines, and its class from the toolkit's folder.

    Attributes:
        id: the game's short id (``ls20``), the part of the toolkit's ``game_id`` before its version.
        version: the rest of the toolkit's ``game_id`` (``""`` when it has none).
        title: the game's title.
        source: the game's source file.
        baselines: a human's action count for each level, in order (as many as the toolkit gives).
        levels: how many levels the game has.
        actions: the actions the game offers, in the engine's order.
    """

    id: str
    version: str
    title: str
    source: Path
    baselines: tuple[int, ...]
    levels: int
    actions: tuple[str, ...]
    _make: Callable[[], ARCBaseGame] = field(repr=False, compare=False)

    max_difficulty = 0
    budget = 0

    @property
    def rules(self) -> str:
        """No rules are written for a public game: finding them is the player's task."""
        return f"ARC Prize's public game {self.title}: its rules are for the player to discover."

    def level(self, index: int) -> Level:
        """Level ``index`` of the game (from 0), as a level value.

        Raises:
            ValueError: the game has no such level.
        """
        if not 0 <= index < self.levels:
            raise ValueError(f"{self.id} has levels 0 to {self.levels - 1}, not {index}")
        return Level.make(self.id, [[0]], index=index)

    def baseline(self, index: int) -> int | None:
        """A human's action count for level ``index``, when the toolkit gave one."""
        return self.baselines[index] if 0 <= index < len(self.baselines) else None

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A public game draws no fresh level.

        Raises:
            ValueError: always: its levels are fixed
                ([`level`][continual_arc_games.public.PublicGame.level] gives them).
        """
        raise ValueError(f"{self.id} is a public game of fixed levels: it draws no fresh one")

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game with only ``level`` of the game, so that a RESET restarts that level."""
        game = self._make()
        index = level.param("index")
        # The engine keeps a game's levels in these two lists (clean copies and live ones): keeping
        # one level makes it the whole game, won when it is won, as the benchmark plays each level.
        clean = game._clean_levels[index]
        game._clean_levels = [clean]
        game._levels = [clean.clone()]
        game._win_score = 1
        game.set_level(0)
        return game

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A public game has no solver here: always ``None``."""
        return None


def _game_class(source: Path, class_name: str, game_id: str) -> Callable[[], ARCBaseGame]:
    """The class ``class_name`` the source defines (made with no argument), run in a module of its own."""
    spec = importlib.util.spec_from_loader(f"continual_arc_public.{game_id}", loader=None)
    assert spec is not None  # a loader-less spec is always made
    module = importlib.util.module_from_spec(spec)
    try:
        exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), module.__dict__)
    except Exception as err:  # the game's own code: any failure is the folder's
        raise PublicGameError(
            f"{source}: the game's source does not run ({type(err).__name__}: {err})"
        ) from err
    found = getattr(module, class_name, None)
    if not isinstance(found, type) or not issubclass(found, ARCBaseGame):
        raise PublicGameError(f"{source}: defines no arcengine game class {class_name}")
    return cast(Callable[[], ARCBaseGame], found)


def _default_class_name(game_id: str) -> str:
    """The toolkit's default: the first four characters of the id, the first capitalised."""
    head = game_id[:4]
    return head[:1].upper() + head[1:]


def _read_one(metadata: Path) -> PublicGame:
    try:
        data: Any = json.loads(metadata.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise PublicGameError(f"{metadata}: not readable JSON ({err})") from err
    full = data.get("game_id") if isinstance(data, dict) else None
    if not isinstance(full, str) or not full:
        raise PublicGameError(f"{metadata}: no game_id")
    game_id, _, version = full.partition("-")
    baselines = data.get("baseline_actions") or []
    if not isinstance(baselines, list) or not all(isinstance(b, int) and b > 0 for b in baselines):
        raise PublicGameError(f"{metadata}: baseline_actions is not a list of positive counts")
    class_name = data.get("class_name") or _default_class_name(game_id)
    candidates = [metadata.parent / f"{class_name.lower()}.py", metadata.parent / f"{class_name}.py"]
    source = next((path for path in candidates if path.exists()), None)
    if source is None:
        raise PublicGameError(f"{metadata}: no source {candidates[0].name} beside it")
    cls = _game_class(source, class_name, game_id)
    try:
        game = cls()
    except Exception as err:  # the game's own code
        raise PublicGameError(f"{source}: {class_name}() fails ({type(err).__name__}: {err})") from err
    actions = tuple(ACTIONS[i] for i in game._available_actions if 0 < i < len(ACTIONS))
    title = str(data.get("title") or game_id)
    return PublicGame(
        game_id, version, title, source, tuple(baselines), len(game._clean_levels), actions, cls
    )


def read_public_games(root: Path) -> dict[str, PublicGame]:
    """Every public game under ``root`` (the toolkit's ``environments_dir``), by its short id.

    Where a game was downloaded in several versions, the last version in sorted order is kept.

    Raises:
        PublicGameError: a game's folder cannot be read; the message names the file.
    """
    games: dict[str, PublicGame] = {}
    for metadata in sorted(root.rglob("metadata.json")) if root.is_dir() else []:
        game = _read_one(metadata)
        kept = games.get(game.id)
        if kept is None or kept.version <= game.version:
            games[game.id] = game
    return dict(sorted(games.items()))
