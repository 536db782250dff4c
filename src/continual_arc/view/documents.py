"""The JSON documents the page draws: the index, a run with its stream strip, its diagnostics, a protocol.

The server answers ``/api/<name>`` with these and the export writes them as ``data/<name>.js``, so
the page reads the same documents either way. Every number comes from the measure stage's
functions over the records; nothing here measures anything of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.games import GAME_ACTIONS
from ..core.records import JSONObject, JSONValue, Phase, Play, Record, is_primary
from ..measure.budget import PHASE_ORDER, budget_used, primary, share_solved
from ..measure.compare import MismatchError, share_learned, share_saved
from ..measure.diagnostics import diagnostics
from ..measure.reset_flags import reset_flags
from ..protocol.plane import PlanePoint
from .catalog import Catalog, ProtocolEntry, RunEntry
from .document_types import (
    AddonEntry,
    DiagnosticsDocument,
    IndexDocument,
    PhaseCell,
    ProtocolView,
    RunDocument,
    RunOverview,
    Strip,
    StripColumns,
)
from .loading import json_object

__all__ = [
    "PLANE_RESAMPLES",
    "diagnostics_document",
    "index_document",
    "protocol_document",
    "run_document",
    "run_overview",
]

PLANE_RESAMPLES = 2_000
"""Bootstrap resamples when the viewer computes a plane itself (a protocol without ``protocol.json``)."""


def _phases(records: Sequence[Record]) -> dict[str, PhaseCell]:
    chosen = primary(records)
    return {
        phase: {
            "instances": len(rows),
            "budget_used": budget_used(rows),
            "share_solved": share_solved(rows),
        }
        for phase in PHASE_ORDER
        if (rows := [r for r in chosen if r["phase"] == phase])
    }


def _kind(records: Sequence[Record]) -> str:
    """``"game"`` when the run's records act on game levels (the arc3 track), else ``"grid"``.

    Read from the records, not the track, so a viewer without the game engine knows a game run too.
    """
    games = set(GAME_ACTIONS)
    acted = (a.get("action") for r in records for a in r.get("actions") or [] if isinstance(a, Mapping))
    return "game" if any(name in games for name in acted) else "grid"


def run_overview(entry: RunEntry, *, local: bool = True) -> RunOverview:
    """What the index says of a run: where it is, what it played, U and P, partners, problems.

    Args:
        entry: the run.
        local: give its absolute path (a server on this machine); else only its label (an export).
    """
    meta = entry.data.meta or {}
    schedule = json_object(meta.get("schedule"))
    chosen = primary(entry.data.records)
    learner = json_object(meta.get("learner"))
    return {
        "id": entry.id,
        "label": entry.label,
        "path": str(entry.path) if local else entry.label,
        "protocol": entry.protocol,
        "play": entry.play,
        "learner": learner.get("class"),
        "learner_kwargs": learner.get("kwargs"),
        "track": schedule.get("track") or json_object(meta.get("protocol")).get("track"),
        "kind": _kind(chosen),
        "config": schedule.get("config"),
        "seed": schedule.get("seed"),
        "users": schedule.get("users"),
        "order": schedule.get("order"),
        "test": schedule.get("test"),
        "width": schedule.get("width"),
        "reset_each": schedule.get("reset_each"),
        "protocol_block": meta.get("protocol"),
        "slots": meta.get("slots"),
        "instances": len(chosen),
        "budget_used": budget_used(chosen),
        "share_solved": share_solved(chosen),
        "phases": _phases(chosen),
        "partners": entry.partners,
        "reset": entry.reset,
        "files": entry.data.files,
        "problems": entry.data.problems,
        "notes": entry.data.notes,
    }


def index_document(catalog: Catalog, *, live: bool) -> IndexDocument:
    """The page's first document: every run and protocol, and whether playing is available."""
    return {
        "format": 1,
        "live": live,
        "runs": [run_overview(e, local=live) for e in catalog.runs.values()],
        "protocols": [
            {
                "id": p.id,
                "label": p.label,
                "path": str(p.path) if live else p.label,
                "plays": p.plays,
                "problems": p.problems,
            }
            for p in catalog.protocols.values()
        ],
        "problems": catalog.problems,
    }


def _strip(records: Sequence[Record]) -> Strip:
    """The stream strip's columns, one per primary instance in order of step, as parallel arrays."""
    chosen = sorted(primary(records), key=lambda r: int(r["step"]))
    tasks: list[str] = []
    index: dict[str, int] = {}
    columns: StripColumns = {
        "step": [],
        "user": [],
        "round": [],
        "phase": [],
        "task": [],
        "seed": [],
        "exposure": [],
        "gap": [],
        "charge": [],
        "solved": [],
        "end": [],
    }
    for r in chosen:
        task = str(r["task_id"])
        if task not in index:
            index[task] = len(tasks)
            tasks.append(task)
        columns["step"].append(int(r["step"]))
        columns["user"].append(r["user"])
        columns["round"].append(r["round"])
        columns["phase"].append(r["phase"])
        columns["task"].append(index[task])
        columns["seed"].append(r["seed"])
        columns["exposure"].append(r["exposure_index"])
        columns["gap"].append(r["gap"])
        columns["charge"].append(r["charge"])
        columns["solved"].append(bool(r["solved"]))
        columns["end"].append(r["end"])
    max_cost = max((int(r["max_cost"]) for r in chosen), default=16)
    return {"tasks": tasks, "max_cost": max_cost, "columns": columns}


def _addons(records: Sequence[Record]) -> list[AddonEntry]:
    """The auxiliary episodes plug-ins asked for (never in a measure), for their replays."""
    return [
        {
            "name": f"addon-{r.get('addon_index')}",
            "step": r["step"],
            "round": r["round"],
            "user": r["user"],
            "phase": r["phase"],
            "task": r["task_id"],
            "seed": r["seed"],
            "plugin": r.get("plugin"),
            "reason": r.get("reason"),
            "charge": r["charge"],
            "solved": r["solved"],
        }
        for r in records
        if not is_primary(r) and r.get("addon_index") is not None
    ]


def run_document(entry: RunEntry, *, local: bool = True) -> RunDocument:
    """A run: its overview (`run_overview`), its stream strip's columns and its auxiliary episodes."""
    return {
        "format": 1,
        **run_overview(entry, local=local),
        "strip": _strip(entry.data.records),
        "addons": _addons(entry.data.records),
        "summary_complete": None if entry.data.summary is None else entry.data.summary.get("complete"),
    }


def diagnostics_document(entry: RunEntry) -> DiagnosticsDocument:
    """A run's stream diagnostics (``None`` when it has no stream instances), or why they are missing."""
    try:
        return {"format": 1, "id": entry.id, "diagnostics": diagnostics(entry.data.records), "problem": None}
    except (KeyError, TypeError, ValueError) as err:
        return {"format": 1, "id": entry.id, "diagnostics": None, "problem": f"cannot compute them: {err!r}"}


def _computed_plane(protocol: ProtocolEntry, catalog: Catalog) -> tuple[JSONObject | None, str | None]:
    """The plane computed from the plays (when ``protocol.json`` is missing), or why it cannot be."""
    plays = protocol.plays
    needed = (Play.SEEN, Play.SEEN_RESET, Play.HELD_OUT, Play.HELD_OUT_RESET)
    missing = [p for p in needed if plays.get(p) is None]
    if missing:
        return None, f"the plane needs the {', '.join(missing)} play(s)"

    def records(play: Play) -> list[Record]:
        run_id = plays[play]
        return [] if run_id is None else catalog.runs[run_id].data.records

    try:
        seen = share_saved(
            [records(Play.SEEN)], [records(Play.SEEN_RESET)], test=Phase.SEEN, resamples=PLANE_RESAMPLES
        )
        held = share_saved(
            [records(Play.HELD_OUT)],
            [records(Play.HELD_OUT_RESET)],
            test=Phase.HELD_OUT,
            resamples=PLANE_RESAMPLES,
        )
        learned = None
        whole = bool(plays.get(Play.STREAM) and plays.get(Play.STREAM_RESET))
        if whole:
            learned = share_learned(
                records(Play.STREAM), records(Play.STREAM_RESET), resamples=PLANE_RESAMPLES
            )
        flags = reset_flags(
            held_out=records(Play.HELD_OUT),
            held_out_reset=records(Play.HELD_OUT_RESET),
            seen_reset=records(Play.SEEN_RESET),
            stream=records(Play.STREAM) if whole else None,
            stream_reset=records(Play.STREAM_RESET) if whole else None,
            resamples=PLANE_RESAMPLES,
        )
    except (MismatchError, KeyError, TypeError, ValueError) as err:
        return None, f"the plane cannot be computed: {err}"
    schedule = json_object((catalog.runs[str(plays[Play.SEEN])].data.meta or {}).get("schedule"))
    setting = f"{schedule.get('config')}, {schedule.get('users')} user(s)" if schedule else ""
    point = PlanePoint(protocol.label, seen, held, learned, setting, flags)
    return point.to_json(), None


def protocol_document(protocol: ProtocolEntry, catalog: Catalog, *, local: bool = True) -> ProtocolView:
    """A protocol: its plays, the plane (as ``protocol.json`` has it, else computed) and its problems.

    ``local`` gives its absolute path, else its label only (an export does not publish local paths).
    """
    document = protocol.document or {}
    written = document.get("plane")
    plane: JSONValue = written if isinstance(written, dict) else None
    note = None
    if plane is None:
        computed, note = _computed_plane(protocol, catalog)
        plane = computed
        if computed is not None:
            note = (
                f"computed by the viewer ({PLANE_RESAMPLES} bootstrap resamples): protocol.json has no plane"
            )
    return {
        "format": 1,
        "id": protocol.id,
        "label": protocol.label,
        "path": str(protocol.path) if local else protocol.label,
        "plays": protocol.plays,
        "learner": document.get("learner"),
        "config": document.get("config"),
        "seed": document.get("seed"),
        "users": document.get("users"),
        "protocol_block": document.get("protocol"),
        "plane": plane,
        "plane_note": note,
        "problems": protocol.problems,
    }
