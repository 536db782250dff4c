"""Results whose track cannot run here: not checked, said in one short reason with the command that would.

A fresh install holds arc1 only: arc2's data is fetched by a command, arc3 needs Python 3.12 and
ARC Prize's game engine, and a result verified on a rule pack needs that pack's folder. Such a
result is not wrong, and the checker could not read it, so the leaderboard lists it apart as *not
checked here* instead of refusing it:
[not_checked_here][continual_arc.submit.leaderboard.here.not_checked_here] asks the stream's
schedule to rebuild before anything is checked, and turns the sentence of what is missing into a
reason and a command.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import ContinualArcError
from ...core.files import RecordsError, read_json
from ...data.pinned import SourceError
from ...stream.schedule import rebuild
from ...tracks.registry import UNAVAILABLE, pack_in_use

__all__ = ["NotHere", "not_checked_here"]

_PACK_PREFIX = "pack-"


@dataclass(frozen=True)
class NotHere:
    """Why a result's track cannot run here, and the command that would check it.

    Attributes:
        track: the stream's track.
        reason: one short sentence, no exception in it.
        command: what to run (install or fetch, then check) to check it.
    """

    track: str | None
    reason: str
    command: str


def _stream_meta(root: Path) -> Mapping[str, object] | None:
    """The stream's ``meta.json`` the submission names (``None`` when unreadable: the checker says why)."""
    try:
        submission = read_json(root / "submission.json")
        name = str(submission.get("stream", ".")) if isinstance(submission, Mapping) else "."
        meta = read_json(root / name / "meta.json")
    except (FileNotFoundError, RecordsError, OSError):
        return None
    return meta if isinstance(meta, Mapping) else None


def _check_command(root: Path) -> str:
    return f"continual-arc check {shlex.quote(str(root))}"


def _unavailable(root: Path, track: str, why: str) -> NotHere:
    """A track that is declared but not installed: its sentence is ``what it needs: what to install``."""
    needs, _, install = why.partition(": ")
    if not install:
        return NotHere(
            track, f"the {track} track is not installed here", f"install it, then {_check_command(root)}"
        )
    return NotHere(track, needs, f"{install}, then {_check_command(root)}")


def _source(root: Path, track: str, err: SourceError) -> NotHere:
    """A track's data that is missing here: its sentence ends ``run: COMMAND (more)``."""
    text = str(err)
    _, found, after = text.rpartition("run: ")
    if not found:
        _, found, after = text.rpartition("with: ")
    fetch = after.split(" (", 1)[0].strip() if found else ""
    reason = (
        f"the {track} track's data is not fetched here"
        if "not fetched" in text
        else (f"the {track} track's data cannot be read here")
    )
    command = f"{fetch}, then {_check_command(root)}" if fetch else _check_command(root)
    return NotHere(track, reason, command)


def not_checked_here(root: Path | str) -> NotHere | None:
    """Why the result in ``root`` cannot be checked here, or ``None`` when it can (or is unreadable).

    A result whose stream's meta cannot be read is the checker's to refuse, not this function's.
    """
    root = Path(root)
    meta = _stream_meta(root)
    schedule = meta.get("schedule") if meta is not None else None
    if not isinstance(schedule, Mapping):
        return None
    track = str(schedule.get("track"))
    if track.startswith(_PACK_PREFIX) and pack_in_use(track) is None:
        pack = track.removeprefix(_PACK_PREFIX)
        return NotHere(
            track,
            f"it was played on rule pack {pack}, whose folder was not given",
            f"continual-arc leaderboard --pack PACK_DIR {shlex.quote(str(root))}",
        )
    if track in UNAVAILABLE:
        return _unavailable(root, track, UNAVAILABLE[track])
    try:
        rebuild(schedule)  # type: ignore[arg-type]  # its shape is the checker's to judge
    except SourceError as err:
        return _source(root, track, err)
    except (ContinualArcError, KeyError, TypeError, ValueError):
        return None  # a schedule block that rebuilds nothing: the checker refuses it, saying why
    return None
