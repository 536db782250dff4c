"""A run directory read back for viewing: whatever is there, and a sentence for whatever is not.

The play stage's reader, [`rundir.read_run`][continual_arc.play.rundir.read_run], refuses a run it
cannot use; a viewer must show what it can instead. [`read_run`][continual_arc.view.loading.read_run]
reads ``meta.json``, ``records.jsonl`` and ``summary.json`` without ever writing (a record line cut
short by a crash is left out, not cut from the file), keeps the records that carry what the page
draws, fills the fields an older format lacks, and lists every problem in words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..core.files import RecordsError, read_json
from ..core.records import EpisodeType, JSONObject, JSONValue, Phase, Record, is_primary
from ..play.rundir import META, PLUGINS, RECORDS, SCHEDULE, SUMMARY

__all__ = [
    "MEMORY",
    "REQUIRED",
    "RunData",
    "is_run_dir",
    "json_list",
    "json_object",
    "read_json_file",
    "read_run",
]

MEMORY = "memory.json"

REQUIRED = ("step", "task_id", "charge")
"""The record fields without which an instance cannot be drawn."""

_DEFAULTS: Mapping[str, JSONValue] = {
    "phase": Phase.STREAM,
    "user": 0,
    "round": None,
    "seed": None,
    "exposure_index": None,
    "gap": None,
    "solved": False,
    "end": None,
    "max_cost": 16,
    "episode_type": EpisodeType.PRIMARY,
}
"""Fields a record of an older format may lack, and what is assumed in their place."""


@dataclass
class RunData:
    """A run directory as the viewer reads it.

    Attributes:
        path: the directory.
        meta: ``meta.json`` (``None`` when missing or unreadable).
        records: the records that could be read, each with every field of `_DEFAULTS`.
        summary: ``summary.json`` (``None`` when the run has not finished).
        problems: what is missing or damaged, one sentence each.
        files: which of the optional files exist (``memory.json``, ``plugins.json``, ``i/``).
        notes: what the page should know that is not a fault (a run stored as its records only).
    """

    path: Path
    meta: JSONObject | None
    records: list[Record]
    summary: JSONObject | None
    problems: list[str] = field(default_factory=list)
    files: dict[str, bool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def json_object(value: object) -> JSONObject:
    """``value`` when it is a JSON object, else ``{}`` (a field of a file the viewer draws what it can of)."""
    return value if isinstance(value, dict) else {}


def json_list(value: object) -> list[JSONValue]:
    """``value`` when it is a JSON list, else ``[]``."""
    return value if isinstance(value, list) else []


def is_run_dir(path: Path) -> bool:
    """Whether ``path`` looks like a run directory (it has a ``meta.json`` or a ``records.jsonl``)."""
    return path.is_dir() and ((path / META).is_file() or (path / RECORDS).is_file())


def read_json_file(path: Path, problems: list[str], what: str) -> JSONValue:
    """``path`` read as JSON, or ``None`` with a sentence in ``problems`` when it is missing or damaged."""
    try:
        value: JSONValue = read_json(path)
        return value
    except FileNotFoundError:
        problems.append(f"{path.name} is missing: {what}")
    except (RecordsError, OSError, UnicodeDecodeError) as err:
        problems.append(f"{path.name} cannot be read ({err}): {what}")
    return None


def _parse_lines(path: Path, problems: list[str]) -> list[JSONValue]:
    """Every line of ``records.jsonl`` that parses; a damaged line is skipped and named."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        problems.append(f"{RECORDS} is missing: no round of the run was committed")
        return []
    except OSError as err:
        problems.append(f"{RECORDS} cannot be read ({err})")
        return []
    lines = text.split("\n")
    tail = lines.pop()
    out: list[JSONValue] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            problems.append(f"{RECORDS}, line {number}, is not valid JSON: left out")
    if tail.strip():
        problems.append(
            f"the last line of {RECORDS} (line {len(lines) + 1}) is cut short, a run stopped while "
            "writing: left out"
        )
    return out


def _usable(raw: list[JSONValue], problems: list[str]) -> list[Record]:
    """The records that can be drawn, older formats' missing fields filled in (and named once)."""
    records: list[Record] = []
    dropped, filled = 0, set()
    for value in raw:
        if not isinstance(value, dict) or any(name not in value for name in REQUIRED):
            dropped += 1
            continue
        for name, default in _DEFAULTS.items():
            if name not in value:
                filled.add(name)
                value[name] = default
        records.append(cast(Record, value))  # its required fields are there, the rest filled in
    if dropped:
        problems.append(f"{dropped} record(s) lack {', '.join(REQUIRED)}: left out")
    if filled:
        problems.append(
            f"the records lack {', '.join(sorted(filled))} (an older format?): shown with defaults "
            + ", ".join(f"{n} = {json.dumps(_DEFAULTS[n])}" for n in sorted(filled))
        )
    return records


def _finished(data: RunData) -> None:
    """Say how far the run got when ``summary.json`` is missing or says it is incomplete."""
    primary = [r for r in data.records if is_primary(r)]
    slots = data.meta.get("slots") if data.meta else None
    of = f" of {slots}" if isinstance(slots, int) else ""
    if data.summary is None:
        data.problems.append(
            f"{SUMMARY} is missing: the run has not finished ({len(primary)}{of} instances recorded); "
            "U and P are computed from the records present"
        )
    elif data.summary.get("complete") is False:
        data.problems.append(f"the run stopped early: {len(primary)}{of} instances recorded")


def read_run(path: Path | str) -> RunData:
    """Read a run directory for viewing, never writing to it and never refusing it."""
    path = Path(path)
    problems: list[str] = []
    meta = read_json_file(path / META, problems, "the run's schedule and learner are unknown")
    if meta is not None and not isinstance(meta, dict):
        problems.append(f"{META} is not a JSON object: ignored")
        meta = None
    records = _usable(_parse_lines(path / RECORDS, problems), problems)
    summary: JSONObject | None = None
    if (path / SUMMARY).exists():
        written = read_json_file(path / SUMMARY, problems, "U and P are computed from the records")
        summary = written if isinstance(written, dict) else None
    data = RunData(path, meta, records, summary, problems)
    _finished(data)
    data.files = {
        "memory": (path / MEMORY).is_file(),
        "plugins": (path / PLUGINS).is_file(),
        "trajectories": (path / "i").is_dir(),
    }
    if records and not data.files["trajectories"]:
        # A stored run keeps its records only, by design: each instance is regenerated from its task
        # and seed for its replay, as the checker does to replay it.
        data.notes.append(
            "records only (no trajectories): each replay regenerates its instance from its task and "
            "seed and draws the recorded actions and verdicts on it"
        )
    elif not (path / SCHEDULE).is_file():  # a stored run's schedules are its protocol's (schedules/)
        problems.append(f"{SCHEDULE} is missing")
    return data
