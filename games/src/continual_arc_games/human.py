"""Human action counts, recorded beside the games: the level score's baseline where a human played.

ARC-AGI-3 scores a level against the action count of a human who played it for the first time
(ARC Prize takes the upper median of several). ``human_actions.json`` beside this module holds the
counts recorded for levels of these games, each level by the SHA-256 of its canonical JSON
([`level_key`][continual_arc_games.human.level_key]), as

```json
{"format": 1, "levels": {"<sha256>": {"game": "ice-slide", "actions": [14, 11, 19]}}}
```

[`human_actions`][continual_arc_games.human.human_actions] gives a level's upper median, or ``None``
when no human's play of it is recorded: the benchmark then reads the level against its solver's plan.
[`record_human_actions`][continual_arc_games.human.record_human_actions] adds one won play's count (the
viewer's game player calls it). The file ships empty: the track draws fresh levels from its seeds, so a
count applies only to a level a human played exactly, such as a public game's fixed level.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .base import Level

__all__ = [
    "HUMAN_FILE",
    "HumanFileError",
    "human_actions",
    "level_key",
    "read_human_file",
    "record_human_actions",
]

HUMAN_FILE = Path(__file__).with_name("human_actions.json")
"""The human counts shipped beside the games."""

_FORMAT = 1


class HumanFileError(ValueError):
    """A human counts file that [`read_human_file`][continual_arc_games.human.read_human_file] cannot read."""


def level_key(level: Level) -> str:
    """The key of a level in a human counts file: the SHA-256 of its canonical JSON, in hex."""
    return hashlib.sha256(level.to_json().encode("utf-8")).hexdigest()


def read_human_file(path: Path | None = None) -> dict[str, list[int]]:
    """Every level's recorded counts, by key (nothing when the file does not exist).

    Args:
        path: the counts file (by default [`HUMAN_FILE`][continual_arc_games.human.HUMAN_FILE], looked up
            when called).

    Raises:
        HumanFileError: the file is not a format-1 counts file: the message names what is wrong.
    """
    path = HUMAN_FILE if path is None else path
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise HumanFileError(f"{path}: not readable JSON ({err})") from err
    if (
        not isinstance(data, dict)
        or data.get("format") != _FORMAT
        or not isinstance(data.get("levels"), dict)
    ):
        raise HumanFileError(f"{path}: not a human counts file (format {_FORMAT} with its levels)")
    counts: dict[str, list[int]] = {}
    for key, entry in data["levels"].items():
        actions = entry.get("actions") if isinstance(entry, dict) else None
        if not isinstance(actions, list) or not actions or not all(_positive(a) for a in actions):
            raise HumanFileError(f"{path}: level {key} has no list of positive action counts")
        counts[key] = list(actions)
    return counts


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def human_actions(level: Level, counts: Mapping[str, list[int]] | None = None) -> int | None:
    """The upper median of the human counts recorded for ``level`` (``None``: none is recorded).

    Args:
        level: the level.
        counts: the counts by level key (by default the shipped file's).
    """
    found = (read_human_file() if counts is None else counts).get(level_key(level))
    return sorted(found)[len(found) // 2] if found else None


def record_human_actions(level: Level, actions: int, path: Path | None = None) -> None:
    """Add one human's winning play of ``level`` in ``actions`` actions to the counts file.

    The file is rewritten whole, keys sorted, through a temporary file, so a reader never sees half.

    Raises:
        ValueError: ``actions`` is not a positive count.
        HumanFileError: the existing file cannot be read.
    """
    if not _positive(actions):
        raise ValueError(f"a human's play takes a positive number of actions, got {actions!r}")
    path = HUMAN_FILE if path is None else path
    counts = read_human_file(path)
    counts.setdefault(level_key(level), []).append(actions)
    games = {**_games(path), level_key(level): level.game}
    levels = {key: {"game": games.get(key, ""), "actions": counts[key]} for key in sorted(counts)}
    text = json.dumps({"format": _FORMAT, "levels": levels}, indent=1, sort_keys=True) + "\n"
    partial = path.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def _games(path: Path) -> dict[str, str]:
    """Each recorded level's game, by key (as the file names them)."""
    if not path.exists():
        return {}
    levels = json.loads(path.read_text(encoding="utf-8"))["levels"]
    return {key: str(entry.get("game", "")) for key, entry in levels.items()}
