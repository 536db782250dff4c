"""ARC-AGI-3's public games, fetched by ARC Prize's toolkit into the data directory (``data fetch``).

The public games are in no package: ARC Prize's toolkit (``pip install arc-agi``, the ``arc3-public``
extra) downloads each game's source and its human baselines from ARC Prize's API with the user's key
(``ARC_API_KEY``). [`fetch_public_games`][continual_arc.data.arc3_public.fetch_public_games] asks it for the
games into [`public_games_dir`][continual_arc.data.arc3_public.public_games_dir], in the toolkit's own
layout (a ``metadata.json`` beside each game's source), which the arc3-public track reads. Nothing else
touches the network: a protocol only reads what a fetch left there.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import ContinualArcError
from .directory import data_dir

__all__ = [
    "KEY_ENV",
    "PUBLIC_GAMES",
    "PUBLIC_TRACK",
    "PublicFetchError",
    "fetch_public_games",
    "public_games_dir",
]

PUBLIC_TRACK = "arc3-public"
"""The track's name (and the data directory's folder for it)."""

PUBLIC_GAMES = ("ft09", "ls20", "vc33")
"""The games fetched when none is named: ARC-AGI-3's three public preview games."""

KEY_ENV = "ARC_API_KEY"
"""The environment variable holding the user's ARC Prize API key (the toolkit's own)."""

INSTALL = "pip install arc-agi (the arc3-public extra: pip install -e '.[arc3-public]', Python 3.12)"


class PublicFetchError(ContinualArcError):
    """A fetch of the public games that cannot be done: no toolkit, no key, or a game not delivered."""


def public_games_dir(root: Path | None = None) -> Path:
    """The toolkit's ``environments_dir``: ``arc3-public/environment_files`` in the data directory."""
    return (data_dir() if root is None else root) / PUBLIC_TRACK / "environment_files"


def _game_folder(folder: Path, base: str) -> Path | None:
    """The folder of game ``base`` (its id before the version) under ``folder``, if the toolkit wrote one."""
    for metadata in sorted(folder.rglob("metadata.json")) if folder.is_dir() else []:
        try:
            game_id = json.loads(metadata.read_text(encoding="utf-8")).get("game_id", "")
        except (OSError, ValueError, AttributeError):
            continue  # the track says what is wrong with it when it reads the folder
        if isinstance(game_id, str) and game_id.split("-", 1)[0] == base:
            return metadata.parent
    return None


def fetch_public_games(
    games: Sequence[str] = PUBLIC_GAMES, key: str | None = None, root: Path | None = None
) -> dict[str, Any]:
    """Have ARC Prize's toolkit download ``games`` into the data directory's folder for them.

    The folder is [`public_games_dir`][continual_arc.data.arc3_public.public_games_dir].

    Args:
        games: the games' ids (``ls20``, or ``ls20-<version>`` for one version).
        key: the user's API key (default: ``$ARC_API_KEY``).
        root: the data directory (default: the configured one).

    Returns:
        ``{"folder": ..., "games": [ids fetched], "lines": [human-readable lines]}``.

    Raises:
        PublicFetchError: the toolkit is not installed, no key is given, or the toolkit delivered no
            folder for a game.
    """
    key = key if key is not None else os.environ.get(KEY_ENV, "")
    if not key:
        raise PublicFetchError(
            f"fetching ARC Prize's public games needs your API key in ${KEY_ENV} (register at arcprize.org)"
        )
    try:
        toolkit = importlib.import_module("arc_agi")
    except ImportError:
        raise PublicFetchError(f"fetching ARC Prize's public games needs its toolkit: {INSTALL}") from None
    folder = public_games_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    arcade = toolkit.Arcade(arc_api_key=key, environments_dir=str(folder))
    lines = []
    for game in games:
        arcade.make(game)  # the toolkit downloads a game it does not hold yet
        where = _game_folder(folder, game.split("-", 1)[0])
        if where is None:
            raise PublicFetchError(
                f"ARC Prize's toolkit delivered no game {game} into {folder} (is the id right?)"
            )
        lines.append(f"{game}: {where}")
    lines.append(f"data directory: {folder}")
    return {"folder": str(folder), "games": list(games), "lines": lines}
