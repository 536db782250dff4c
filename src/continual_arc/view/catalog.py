"""The runs and protocols under the paths given, each with an id, and the runs whose instances line up.

A path may be a run directory, a protocol directory (what ``continual-arc protocol`` writes: one run
per play of [`PROTOCOL_PLAYS`][continual_arc.protocol.plays.PROTOCOL_PLAYS]) or a results directory holding
either at any depth. Every run gets an id (``r0``, ``r1``, ...), every protocol one (``p0``, ...);
the server names files only through these ids, so it can serve nothing outside the directories it
was given. Two runs *line up* when they served instances with the same real task ids and instance
seeds; a run's *reset* is its protocol's reset play, or else a run that lines up with it and was
played with the learner reset before every instance.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from typing_extensions import TypedDict  # the form pydantic reads on 3.11 (scripts/export_schemas.py)

from ..core.records import JSONObject, JSONValue, Record, is_primary
from ..protocol.plays import PROTOCOL_PLAYS
from .loading import RunData, is_run_dir, json_object, read_json_file, read_run

__all__ = ["Catalog", "Partner", "ProtocolEntry", "RunEntry", "build_catalog", "instance_keys"]

_SKIP = {"i", "state", "plots", "schedules", ".git", "__pycache__", "node_modules"}
"""Directories never searched for runs (a run's own parts, and clutter)."""

_MAX_DEPTH = 6


class Partner(TypedDict):
    """A run that shares instances with another: its id, how many it shares, whether all of them."""

    id: str
    shared: int
    same: bool


@dataclass
class RunEntry:
    """One run directory: its id, where it was found, and its contents."""

    id: str
    path: Path
    label: str
    data: RunData
    protocol: str | None = None
    play: str | None = None
    keys: frozenset[tuple[str, int | None]] = frozenset()
    partners: list[Partner] = field(default_factory=list)
    reset: str | None = None


@dataclass
class ProtocolEntry:
    """One protocol directory: its plays (by run id, ``None`` when missing) and ``protocol.json``."""

    id: str
    path: Path
    label: str
    plays: dict[str, str | None]
    document: JSONObject | None
    problems: list[str] = field(default_factory=list)


@dataclass
class Catalog:
    """Everything the viewer shows: its runs and protocols by id, and what was given but not found."""

    runs: dict[str, RunEntry]
    protocols: dict[str, ProtocolEntry]
    problems: list[str]
    roots: tuple[Path, ...]


def instance_keys(records: Iterable[Record]) -> frozenset[tuple[str, int | None]]:
    """The primary instances of some records, by real task id and instance seed."""
    return frozenset((str(r["task_id"]), r.get("seed")) for r in records if is_primary(r))


def is_protocol_dir(path: Path) -> bool:
    """Whether ``path`` is a protocol directory (a ``protocol.json``, or a play's run directory)."""
    if not path.is_dir() or is_run_dir(path):
        return False
    return (path / "protocol.json").is_file() or any(is_run_dir(path / p) for p in PROTOCOL_PLAYS.values())


def _walk(root: Path) -> list[Path]:
    """The run and protocol directories under ``root``, in sorted order (symbolic links not followed)."""
    found: list[Path] = []
    for current, dirs, _ in os.walk(root, followlinks=False):
        here = Path(current)
        depth = len(here.relative_to(root).parts)
        if here != root and (is_run_dir(here) or is_protocol_dir(here)):
            found.append(here)
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d not in _SKIP) if depth < _MAX_DEPTH else []
    return found


class _Builder:
    """Assigns ids while directories are found."""

    def __init__(self) -> None:
        self.runs: dict[str, RunEntry] = {}
        self.protocols: dict[str, ProtocolEntry] = {}
        self.seen: set[Path] = set()

    def add_run(self, path: Path, label: str, protocol: str | None = None, play: str | None = None) -> str:
        run_id = f"r{len(self.runs)}"
        data = read_run(path)
        entry = RunEntry(run_id, path, label, data, protocol, play, instance_keys(data.records))
        self.runs[run_id] = entry
        self.seen.add(path.resolve())
        return run_id

    def add_protocol(self, path: Path, label: str) -> None:
        pid = f"p{len(self.protocols)}"
        problems: list[str] = []
        document = None
        if (path / "protocol.json").is_file():
            from_file = _read_document(path / "protocol.json", problems)
            document = from_file if isinstance(from_file, dict) else None
        else:
            problems.append(
                "protocol.json is missing: the protocol did not finish (the plane is computed here)"
            )
        plays: dict[str, str | None] = {}
        for play, name in PROTOCOL_PLAYS.items():
            if is_run_dir(path / name):
                plays[play] = self.add_run(path / name, f"{label} / {play}", pid, play)
            else:
                plays[play] = None
                problems.append(f"the {play} play ({name}/) is missing")
        self.protocols[pid] = ProtocolEntry(pid, path, label, plays, document, problems)
        self.seen.add(path.resolve())

    def add(self, path: Path, label: str) -> bool:
        if path.resolve() in self.seen:
            return True
        if is_run_dir(path):
            self.add_run(path, label)
        elif is_protocol_dir(path):
            self.add_protocol(path, label)
        else:
            return False
        return True


def _read_document(path: Path, problems: list[str]) -> JSONValue:
    return read_json_file(path, problems, "the plane is computed from the plays")


def _label(path: Path, root: Path) -> str:
    if path == root:
        return path.name or str(path)
    return f"{root.name}/{path.relative_to(root).as_posix()}"


def _pair(runs: dict[str, RunEntry], protocols: dict[str, ProtocolEntry]) -> None:
    """Each run's partners (runs sharing instances with it) and its reset."""
    for entry in runs.values():
        for other in runs.values():
            shared = len(entry.keys & other.keys) if other is not entry else 0
            if shared:
                entry.partners.append({"id": other.id, "shared": shared, "same": other.keys == entry.keys})
        if entry.protocol and entry.play and not entry.play.endswith("-reset"):
            entry.reset = protocols[entry.protocol].plays.get(f"{entry.play}-reset")
        elif not _is_reset(entry):
            resets = [
                p["id"]
                for p in entry.partners
                if _is_reset(runs[p["id"]]) and _same_learner(entry, runs[p["id"]])
            ]
            entry.reset = resets[0] if resets else None


def _same_learner(a: RunEntry, b: RunEntry) -> bool:
    """Whether two runs name the same learner with the same arguments (both known)."""
    first = a.data.meta.get("learner") if a.data.meta else None
    second = b.data.meta.get("learner") if b.data.meta else None
    return first is not None and first == second


def _is_reset(entry: RunEntry) -> bool:
    """Whether the run was played with the learner reset before every instance."""
    if entry.play is not None:
        return entry.play.endswith("-reset")
    schedule = json_object((entry.data.meta or {}).get("schedule"))
    if schedule.get("reset_each") or schedule.get("width") == 1:
        return True
    primary = [r for r in entry.data.records if is_primary(r)]
    return bool(primary) and all(r.get("reset_before") for r in primary)


def build_catalog(paths: Sequence[Path | str]) -> Catalog:
    """Find every run and protocol under ``paths`` and pair the runs whose instances line up."""
    builder = _Builder()
    problems: list[str] = []
    roots = []
    for given in paths:
        root = Path(given)
        if not root.is_dir():
            problems.append(f"{root}: not a directory")
            continue
        roots.append(root.resolve())
        if builder.add(root, _label(root, root)):
            continue
        found = _walk(root)
        if not found:
            problems.append(f"{root}: no run or protocol directory found in it")
        for path in found:
            builder.add(path, _label(path, root))
    _pair(builder.runs, builder.protocols)
    return Catalog(builder.runs, builder.protocols, problems, tuple(roots))
