"""The viewer's *Figures* page: the learning curve by exposure, the plane of every result, users.

One document, ``figures`` ([`figures_document`][continual_arc.view.figures.figures_document]), from what the
viewer was given:

* **the learning curve by exposure** (as the reference's Figure 3): for each protocol's stream,
  ``U`` per exposure index, and its reset's beside it; each run given as a *floor*
  (``--floor DIR``) is a horizontal line at its ``U`` over returns;
* **the plane**: every protocol's place (share saved on each test, with its intervals), read from
  the protocol documents the Runs page shows;
* **share saved against users**: from each sweep given (``--sweep DIR``), one series per row
  label, its settings' seeds pooled.

Every number is computed by [`continual_arc.measure.figures`][continual_arc.measure.figures]; the page only
draws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypedDict

from ..core.documents import DocumentError, validate_document
from ..core.files import RecordsError, read_json
from ..core.records import JSONValue, Play
from ..core.sweep_listing import SWEEP_FILE, SweepEntry
from ..measure.figures import (
    ExposurePoint,
    SweepProtocol,
    UsersSeries,
    exposure_curve,
    floor_level,
    share_saved_by_users,
)
from ..play.rundir import STOPPED, read_records
from ..protocol.plays import PROTOCOL_PLAYS, play_finished
from .catalog import Catalog, RunEntry
from .document_types import ProtocolView
from .loading import json_list, json_object

__all__ = [
    "SWEEP_FILE",
    "USERS_RESAMPLES",
    "Curve",
    "FiguresDocument",
    "FloorLine",
    "PlaneEntry",
    "figures_document",
    "read_sweep",
]

USERS_RESAMPLES = 2000
"""Bootstrap resamples of the intervals of share saved against users (the sweep's table uses more)."""


class Curve(TypedDict):
    """A protocol's stream by exposure, its reset's beside it (empty without the reset's stream)."""

    protocol: str
    run: str
    label: str
    learner: list[ExposurePoint]
    reset: list[ExposurePoint]


class FloorLine(TypedDict):
    """A floor: the run whose stream it is, its label and its ``U`` over returns."""

    run: str
    label: str
    budget_used: float


class PlaneEntry(TypedDict):
    """A protocol's place on the plane (``place``: as its document has it), and whether it is a floor."""

    protocol: str
    label: str
    floor: bool
    place: JSONValue


class FiguresDocument(TypedDict):
    """The *Figures* page's document."""

    format: int
    curves: list[Curve]
    floors: list[FloorLine]
    plane: list[PlaneEntry]
    users: list[UsersSeries]
    problems: list[str]


def read_sweep(directory: Path, problems: list[str], shown: str | None = None) -> list[SweepProtocol]:
    """The finished protocols of a sweep's directory; an unfinished or unreadable one is a problem.

    ``shown`` names the directory in the problems (default: its path).
    """
    try:
        listed = json_list(json_object(read_json(directory / SWEEP_FILE)).get("protocols"))
    except (FileNotFoundError, RecordsError):
        problems.append(f"{shown or directory}: not a sweep ({SWEEP_FILE} is missing or not JSON)")
        return []
    found = []
    for index, item in enumerate(listed):
        # Each entry on its own: a malformed one is left out with its sentence, the others kept.
        try:
            entry = validate_document(SweepEntry, item, f"{SWEEP_FILE}, protocols[{index}]")
        except DocumentError as err:
            problems.append(f"{shown or directory}: {err}; that entry is left out")
            continue
        protocol = _sweep_protocol(directory, entry, shown or str(directory), problems)
        if protocol is not None:
            found.append(protocol)
    return found


def _sweep_protocol(
    directory: Path, item: SweepEntry, shown: str, problems: list[str]
) -> SweepProtocol | None:
    """One protocol of a sweep, read when finished (else ``None``, and a problem naming it)."""
    runs = {play: directory / item["directory"] / name for play, name in PROTOCOL_PLAYS.items()}
    label = f"{item['label']} ({item['config']})"
    users, seed = item["users"], item["seed"]
    # The same test as pooling's: a play stopped at the spend cap wrote a summary but did not end.
    if not all(play_finished(run) for run in runs.values()):
        capped = any((run / STOPPED).exists() for run in runs.values())
        why = "stopped at the spend cap" if capped else "not finished"
        problems.append(f"{shown}: {label}, {users} user(s), seed {seed} is {why}, so it is left out")
        return None
    plays = {str(play): read_records(run) for play, run in runs.items()}
    return SweepProtocol(label, users, seed, plays)


def _curve(entry: RunEntry | None) -> list[ExposurePoint]:
    return [] if entry is None else exposure_curve(entry.data.records)


def _curves(catalog: Catalog, floors: frozenset[str]) -> list[Curve]:
    """Each protocol's stream and its reset by exposure (floors are drawn as lines instead)."""
    out: list[Curve] = []
    for protocol in catalog.protocols.values():
        stream = protocol.plays.get(Play.STREAM)
        if protocol.id in floors or stream is None:
            continue
        reset = protocol.plays.get(Play.STREAM_RESET)
        out.append(
            {
                "protocol": protocol.id,
                "run": stream,
                "label": protocol.label,
                "learner": _curve(catalog.runs[stream]),
                "reset": _curve(catalog.runs[reset] if reset else None),
            }
        )
    return out


def _floor_runs(catalog: Catalog, floors: frozenset[str]) -> Iterable[RunEntry]:
    """The stream of each floor given: a protocol's stream play, or a run given alone."""
    for protocol in catalog.protocols.values():
        stream = protocol.plays.get(Play.STREAM)
        if protocol.id in floors and stream is not None:
            yield catalog.runs[stream]
    for entry in catalog.runs.values():
        if entry.id in floors and entry.protocol is None:
            yield entry


def _floors(catalog: Catalog, floors: frozenset[str], problems: list[str]) -> list[FloorLine]:
    out: list[FloorLine] = []
    for entry in _floor_runs(catalog, floors):
        level = floor_level(entry.data.records)
        if level is None:
            problems.append(f"{entry.label}: no task returned on its stream, so it draws no floor")
            continue
        out.append({"run": entry.id, "label": entry.label.removesuffix(" / stream"), "budget_used": level})
    return out


def _plane(
    catalog: Catalog, floors: frozenset[str], protocol: Callable[[str], ProtocolView]
) -> list[PlaneEntry]:
    """Every protocol's place on the plane (floors too: they are results like any other)."""
    points: list[PlaneEntry] = []
    for pid, entry in catalog.protocols.items():
        place = protocol(pid)["plane"]
        if isinstance(place, dict):
            points.append({"protocol": pid, "label": entry.label, "floor": pid in floors, "place": place})
    return points


def figures_document(
    catalog: Catalog,
    protocol: Callable[[str], ProtocolView],
    *,
    floors: frozenset[str] = frozenset(),
    sweeps: Sequence[Path] = (),
    live: bool = True,
) -> FiguresDocument:
    """The *Figures* page's document.

    Args:
        catalog: the runs and protocols given.
        protocol: a protocol's document by id (the site's, built once), for its place on the plane.
        floors: the ids of the protocols and runs given as floors.
        sweeps: the sweeps' directories, for share saved against users.
        live: whether a local server answers (an export names a sweep by its folder's name only).
    """
    problems: list[str] = []
    users: list[UsersSeries] = []
    for sweep in sweeps:
        shown = str(sweep) if live else sweep.name  # an export names no local path
        users += share_saved_by_users(read_sweep(sweep, problems, shown), resamples=USERS_RESAMPLES)
    return {
        "format": 1,
        "curves": _curves(catalog, floors),
        "floors": _floors(catalog, floors, problems),
        "plane": _plane(catalog, floors, protocol),
        "users": users,
        "problems": problems,
    }
