"""The arc3 track: games written for this benchmark on ARC Prize's engine, 15 streamed and 10 held out.

A task is a game (its id is the task id) and an instance is a fresh level of it, drawn from the
instance seed and solved by the game's solver before it is served
([`source`][continual_arc.tracks.arc3.source]); instances are played in
[`GameEnv`][continual_arc.tracks.arc3.env.GameEnv]. The split of the games is
[`HELD_OUT_GAMES`][continual_arc.tracks.arc3.track.HELD_OUT_GAMES], here and nowhere else: every game of
`GAMES` not held out is streamed. ``docs/arc3.md`` explains the choice.
"""

from __future__ import annotations

import dataclasses

from continual_arc_games import GAMES

from ...core.config import Config
from ..track import Role, Track, smoke_config
from .env import GameEnv
from .names import CONFIG_NAMES
from .source import GameSource

__all__ = ["ARC3", "HELD_OUT_GAMES", "STREAM_GAMES"]

_HELD_OUT = (
    "bridge-switches",
    "colour-gates",
    "crumble-floor",
    "drop-stack",
    "guard-patrol",
    "ice-slide",
    "magnet",
    "odd-one-out",
    "pipe-connect",
    "portals",
)

HELD_OUT_GAMES: tuple[str, ...] = tuple(game for game in _HELD_OUT if game in GAMES)
"""The held-out games that exist: each a kin of a streamed game, never streamed itself (docs/arc3.md)."""

STREAM_GAMES: tuple[str, ...] = tuple(sorted(set(GAMES) - set(HELD_OUT_GAMES)))
"""Every other game: the stream and the seen test."""

LEVELS_PER_STREAM_GAME = 8
"""Fresh levels of each game on the stream."""

LEVELS_PER_TEST_GAME = 4
"""Fresh levels of each game in each frozen test."""


def _stream_source() -> GameSource:
    return GameSource("arc3/stream", STREAM_GAMES)


def _held_out_source() -> GameSource:
    return GameSource("arc3/held-out", HELD_OUT_GAMES)


def _smoke() -> Config:
    """Three stream games of three levels, six seen levels, and two held-out games of two levels each."""
    config = smoke_config(CONFIG_NAMES[1], "arc3", task_seed=0)
    return dataclasses.replace(config, held_out=min(2, len(HELD_OUT_GAMES)), held_out_instances=2)


ARC3 = Track(
    name="arc3",
    roles={Role.STREAM: "arc3/stream", Role.HELD_OUT: "arc3/held-out"},
    factories={"arc3/stream": _stream_source, "arc3/held-out": _held_out_source},
    configs=(
        Config(
            name=CONFIG_NAMES[0],
            track="arc3",
            stream_tasks=len(STREAM_GAMES),
            supply=LEVELS_PER_STREAM_GAME,
            held_out=len(HELD_OUT_GAMES),
            held_out_instances=LEVELS_PER_TEST_GAME,
            seen_size=LEVELS_PER_TEST_GAME * len(STREAM_GAMES),
        ),
        _smoke(),
    ),
    environment=GameEnv,
    summary="games written for this benchmark on ARC Prize's engine; fresh levels, each solved before served",
    kind="game",
    rising=True,
    code=("continual_arc_games",),
)
"""The arc3 track."""
