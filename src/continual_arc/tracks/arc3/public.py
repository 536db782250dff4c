"""The arc3-public track: ARC-AGI-3's public games, where a user has fetched them, on the same engine.

ARC Prize's public games (``ls20``, ``ft09``, ``vc33``, ...) are in no package: its toolkit downloads each
game's source and its human baselines with the user's API key. ``continual-arc data fetch --track
arc3-public`` drives the toolkit into ``<data directory>/arc3-public/environment_files``
([`public_games_dir`][continual_arc.data.arc3_public.public_games_dir]); this track then plays what is
there. It draws no fresh levels: an instance is one of a game's fixed levels, the ``k``-th a user meets of
a game on the stream being its level ``k`` (the last once they run out) and a test's drawn from the
instance seed, each read against the human baseline the toolkit gave for it. Every other rule, record and
check is the arc3 track's ([`GameEnv`][continual_arc.tracks.arc3.env.GameEnv]).

The games are split by sorted id: every second one (the second, fourth, ...) is held out, the rest
streamed; the seen test replays the stream games' own levels, which is all a fixed game has.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from continual_arc_games.public import PublicGame, PublicGameError, read_public_games

from ...core.config import Config
from ...core.games import GameDemo
from ...core.seeding import stable_int
from ...data.arc3_public import PUBLIC_TRACK, public_games_dir
from ..sources import UnknownTaskError
from ..track import Role, Track, TrackUnavailableError
from .env import GameEnv
from .levels import is_test_seed
from .source import GameInstance, game_versions

__all__ = ["PUBLIC_CONFIG", "PublicSource", "load_public_track", "public_track"]

PUBLIC_CONFIG = PUBLIC_TRACK
"""The track's one configuration, named as the track."""

FETCH = "fetch them with `continual-arc data fetch --track arc3-public` (needs ARC Prize's API key)"


def _no_demos(index: int) -> GameDemo:
    raise IndexError("a public game's level has no solver, so no demonstration")


class PublicSource:
    """The fixed levels of some public games (a fixed source: the same seed may serve the same level).

    Args:
        name: the source's name (``"arc3-public/stream"``, ...).
        games: the games it serves, by id.
    """

    kind = "fixed"

    def __init__(self, name: str, games: Mapping[str, PublicGame]) -> None:
        self.name = name
        self._games = dict(sorted(games.items()))

    def task_ids(self) -> tuple[str, ...]:
        """Every game id this source serves, sorted."""
        return tuple(self._games)

    def level_index(self, task_id: str, seed: int, exposure: int = 0) -> int:
        """The level instance ``seed`` plays: the ``exposure``-th on the stream, a test's from the seed."""
        levels = self._games[task_id].levels
        if is_test_seed(seed):
            return stable_int("arc3-public", "test level", task_id, seed) % levels
        return min(max(exposure, 0), levels - 1)

    def instance(self, task_id: str, seed: int, exposure: int = 0) -> GameInstance:
        """Instance ``seed`` of a game, its user having met it ``exposure`` times: one fixed level.

        Raises:
            UnknownTaskError: the source does not serve ``task_id``.
        """
        game = self._games.get(task_id)
        if game is None:
            raise UnknownTaskError(f"source {self.name} does not serve game {task_id!r}")
        index = self.level_index(task_id, seed, exposure)
        return GameInstance(
            self.name, task_id, seed, index, game.level(index), (), 0, _no_demos, game, game.baseline(index)
        )

    def describe(self) -> dict[str, Any]:
        """The source's name and kind, the engine's version, and each game's version and source's SHA-256."""
        return {
            "name": self.name,
            "kind": self.kind,
            "versions": {
                **game_versions(),
                **{
                    f"{game.id}_sha256": hashlib.sha256(game.source.read_bytes()).hexdigest()
                    for game in self._games.values()
                },
            },
            "fresh_levels": False,
        }


def public_track(root: Path) -> Track:
    """The arc3-public track over the games fetched into ``root`` (the toolkit's ``environments_dir``).

    Raises:
        TrackUnavailableError: fewer than two games are there (one to stream, one to hold out), or one
            cannot be read.
    """
    try:
        games = read_public_games(root)
    except PublicGameError as err:
        raise TrackUnavailableError(
            f"the arc3-public track cannot read its games: {err}", configs=(PUBLIC_CONFIG,)
        ) from None
    if len(games) < 2:
        raise TrackUnavailableError(
            f"the arc3-public track plays ARC Prize's public games and {root} holds {len(games)} of the two "
            f"it needs at least: {FETCH}",
            configs=(PUBLIC_CONFIG,),
        )
    ids = sorted(games)
    held = {game: games[game] for game in ids[1::2]}
    streamed = {game: games[game] for game in ids[0::2]}
    most = max(game.levels for game in games.values())
    config = Config(
        name=PUBLIC_CONFIG,
        track=PUBLIC_TRACK,
        stream_tasks=len(streamed),
        supply=most,
        held_out=len(held),
        held_out_instances=max(game.levels for game in held.values()),
        seen_size=sum(game.levels for game in streamed.values()),
    )
    return Track(
        name=PUBLIC_TRACK,
        roles={Role.STREAM: "arc3-public/stream", Role.HELD_OUT: "arc3-public/held-out"},
        factories={
            "arc3-public/stream": lambda: PublicSource("arc3-public/stream", streamed),
            "arc3-public/held-out": lambda: PublicSource("arc3-public/held-out", held),
        },
        configs=(config,),
        environment=GameEnv,
        summary="ARC Prize's public games, fetched with the user's key: their fixed levels, never fresh ones",
        kind="game",
        rising=True,
    )


def load_public_track() -> Track:
    """The arc3-public track over the data directory's fetched games (the entry point ``arc3-public``).

    Raises:
        TrackUnavailableError: the games are not fetched (the message says how to fetch them).
    """
    return public_track(public_games_dir())
