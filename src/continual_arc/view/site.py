"""The viewer's documents by name, shared by the server (``/api/<name>``) and the export (``data/<name>.js``).

=============================  ==================================================================
name                           document
=============================  ==================================================================
``index``                      every run and protocol given
([`index_document`][continual_arc.view.documents.index_document]) ``run/<id>``                   a run and its
stream strip ([`run_document`][continual_arc.view.documents.run_document]) ``run/<id>/diagnostics``       its
stream diagnostics ([`diagnostics_document`][continual_arc.view.documents.diagnostics_document])
``run/<id>/memory``            what the learner kept (``memory.json``) and ``plugins.json``
``run/<id>/i/<step>``          one instance's replay
([`replay_document`][continual_arc.view.replay.replay_document]) ``protocol/<id>``              a protocol and
its plane ([`protocol_document`][continual_arc.view.documents.protocol_document]) ``leaderboard``
the leaderboard given, tied to the runs ([`leaderboard`][continual_arc.view.leaderboard]) ``tasks``
every track's tasks, or how to install it ([`tasks`][continual_arc.view.tasks]) ``task/<track>/<role>/<id>``
one task's instance shown ([`task`][continual_arc.view.tasks.TaskBrowser.task]) ``figures``
the curves by exposure, the plane, users ([`figures`][continual_arc.view.figures])
=============================  ==================================================================

Ids are the catalog's (``r0``, ``p0``, ...): a name never carries a path, so nothing outside the
directories given can be named. Documents of runs and protocols are built once and kept; replays
are read from disk each time they are asked for, and never all at once.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TypeAlias, cast

from ..core.errors import ContinualArcError
from ..core.records import JSONObject, Record, is_primary
from ..play.rundir import PLUGINS
from ..tracks.registry import TRACKS
from ..tracks.track import Track
from .catalog import Catalog, RunEntry
from .document_types import DiagnosticsDocument, IndexPage, MemoryDocument, ProtocolView, RunDocument
from .documents import diagnostics_document, index_document, protocol_document, run_document
from .figures import FiguresDocument, figures_document
from .leaderboard import leaderboard_document
from .loading import MEMORY, read_json_file
from .replay import ReplayDocument, replay_document
from .tasks import TaskBrowser, UnknownTask

__all__ = ["Document", "NotFound", "Site"]

_RunPages: TypeAlias = "RunDocument | DiagnosticsDocument | MemoryDocument | ReplayDocument"
Document: TypeAlias = "IndexPage | _RunPages | ProtocolView | FiguresDocument | JSONObject"
"""Each document the site serves (the leaderboard's is the file given, as JSON)."""

_NAME = re.compile(r"(index|leaderboard)|run/(r\d+)(?:/(diagnostics|memory)|/i/([^/]+))?|protocol/(p\d+)")
_PAGES = re.compile(r"(tasks|figures)|task/([^/]+)/([^/]+)/([^/]+)")
"""The names of the Tasks and Figures pages' documents."""


class NotFound(LookupError):
    """A document name that names nothing the viewer was given."""


class Site:
    """Every document of a catalog, by name.

    Args:
        catalog: the runs and protocols given.
        live: whether a server on this machine answers (playing is available only then); an
            export names runs by their labels, never by their local paths.
        leaderboard: a leaderboard's JSON to show on its page (``continual-arc leaderboard --json``).
        standings: each of its results' standing under the reader's trusted keys, by resolved path
            (a row the file ranks as verified that is reported here moves to the reported tables).
        tasks: the Tasks page's tracks (``None``: no Tasks page).
        floors: the ids of the protocols and runs drawn as floors on the Figures page.
        sweeps: the sweeps' directories whose share saved against users the Figures page draws.
        tracks: the tracks the viewer serves, by name, resolved by whoever builds the site (the
            command line adds the packs it was given); by default every installed track.
    """

    def __init__(
        self,
        catalog: Catalog,
        *,
        live: bool,
        leaderboard: JSONObject | None = None,
        standings: Mapping[str, JSONObject] | None = None,
        tasks: TaskBrowser | None = None,
        floors: frozenset[str] = frozenset(),
        sweeps: Sequence[Path] = (),
        tracks: Mapping[str, Track] = TRACKS,
    ) -> None:
        self.catalog = catalog
        self.live = live
        self.leaderboard = leaderboard
        self.standings = standings
        self.tasks = tasks
        self.floors = floors
        self.sweeps = tuple(sweeps)
        self.tracks = tracks
        self._cache: dict[str, Document] = {}
        self._lock = threading.RLock()  # the figures document asks for protocol documents while built

    def document(self, name: str) -> Document:
        """The document called ``name``.

        Raises:
            NotFound: the name is malformed or names no run, protocol or instance given.
        """
        page = _PAGES.fullmatch(name)
        if page is not None:
            return self._page(name, page.group(1), page.groups()[1:])
        match = _NAME.fullmatch(name)
        if match is None:
            raise NotFound(f"no document {name!r}")
        index, run_id, part, step, protocol_id = match.groups()
        if index == "index":
            return self._cached(name, self._index)
        if index == "leaderboard":
            if self.leaderboard is None:
                raise NotFound("no leaderboard was given")
            board = self.leaderboard
            return self._cached(
                name,
                lambda: leaderboard_document(board, self.catalog, live=self.live, standings=self.standings),
            )
        if protocol_id:
            if protocol_id not in self.catalog.protocols:
                raise NotFound(f"no protocol {protocol_id}")
            protocol = self.catalog.protocols[protocol_id]
            return self._cached(name, lambda: protocol_document(protocol, self.catalog, local=self.live))
        entry = self._run(run_id)
        if step is not None:
            try:
                return replay_document(entry, step, self.tracks)
            except LookupError as err:
                raise NotFound(str(err)) from None
        if part == "diagnostics":
            return self._cached(name, lambda: diagnostics_document(entry))
        if part == "memory":
            return _memory_document(entry)
        return self._cached(name, lambda: run_document(entry, local=self.live))

    def _index(self) -> IndexPage:
        return {
            **index_document(self.catalog, live=self.live),
            "leaderboard": self.leaderboard is not None,
            "tasks": self.tasks is not None,
        }

    def _page(self, name: str, page: str | None, task: tuple[str | None, ...]) -> Document:
        """A document of the Tasks or Figures page (a task's is built each time: there are hundreds).

        ``page`` is ``tasks`` or ``figures``, or ``None`` for one task, ``task`` its track, role and id.
        """
        if page == "figures":
            return self._cached(name, self._figures)
        if self.tasks is None:
            raise NotFound("the Tasks page is off (continual-arc view --tasks none)")
        try:
            if page == "tasks":
                return self._cached(name, self.tasks.index)
            track, role, task_id = (str(part) for part in task)
            return self.tasks.task(track, role, task_id)
        except UnknownTask as err:
            raise NotFound(str(err.args[0])) from None
        except ContinualArcError as err:  # the track's data is missing or broken: one sentence
            raise NotFound(f"{'/'.join(str(p) for p in task)} cannot be drawn here: {err}") from None

    def _figures(self) -> FiguresDocument:
        def protocol(pid: str) -> ProtocolView:
            return cast(ProtocolView, self.document(f"protocol/{pid}"))

        sweeps, floors = self.sweeps, self.floors
        return figures_document(self.catalog, protocol, floors=floors, sweeps=sweeps, live=self.live)

    def _run(self, run_id: str) -> RunEntry:
        if run_id not in self.catalog.runs:
            raise NotFound(f"no run {run_id}")
        return self.catalog.runs[run_id]

    def _cached(self, name: str, build: Callable[[], Document]) -> Document:
        with self._lock:
            if name not in self._cache:
                self._cache[name] = build()
            return self._cache[name]

    def names(self) -> Iterator[str]:
        """Every document name, replays included (for the export)."""
        yield "index"
        if self.leaderboard is not None:
            yield "leaderboard"
        yield "figures"
        if self.tasks is not None:
            yield from self.tasks.names()
        for protocol_id in self.catalog.protocols:
            yield f"protocol/{protocol_id}"
        for run_id, entry in self.catalog.runs.items():
            yield f"run/{run_id}"
            yield f"run/{run_id}/diagnostics"
            yield f"run/{run_id}/memory"
            for record in entry.data.records:
                name = _trajectory_name(record)
                if name is not None:
                    yield f"run/{run_id}/i/{name}"


def _trajectory_name(record: Record) -> str | None:
    if is_primary(record):
        return str(record["step"])
    index = record.get("addon_index")
    return None if index is None else f"addon-{index}"


def _memory_document(entry: RunEntry) -> MemoryDocument:
    """What the learner said it kept (``memory.json``) and what plug-ins said (``plugins.json``)."""
    problems: list[str] = []
    memory = plugins = None
    if entry.data.files.get("memory"):
        memory = read_json_file(entry.path / MEMORY, problems, "what the learner kept is unknown")
    else:
        problems.append(
            f"{MEMORY} is missing: the learner reports nothing it kept, or the run has not finished"
        )
    if entry.data.files.get("plugins"):
        plugins = read_json_file(entry.path / PLUGINS, problems, "what the plug-ins said is unknown")
    return {"format": 1, "id": entry.id, "memory": memory, "plugins": plugins, "problems": problems}
