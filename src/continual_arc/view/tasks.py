"""The viewer's *Tasks* page: every task of every installed track, one instance of each shown.

Two documents ([`Site`][continual_arc.view.site.Site] serves them by name):

* ``tasks``: every track the registry knows, in order (arc1, arc2, arc3, then the rest and the
  packs given), each with its task ids by role (``stream``, ``held-out``), or, for a track that
  cannot run here, the one sentence saying how to install it;
* ``task/<track>/<role>/<task>``: one task. A grid task shows a generated instance, its
  demonstrations and test pair; a game (arc3) shows its opening frame and the actions it offers,
  and the page plays a fresh level of it through the server ([`play`][continual_arc.view.play]).

The instance shown is always [`SHOWN_SEED`][continual_arc.view.tasks.SHOWN_SEED], in the viewer's own seed
range (no schedule draws it), so the page is the same on every machine and in every process. A task's document
is built only when the page asks for it, a page of cards at a time: hundreds of tasks never load at once.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from ..core.environment import EnvSettings
from ..core.errors import ContinualArcError
from ..core.games import GameObservation
from ..core.grids import Grid
from ..core.records import JSONObject, JSONValue, Phase
from ..stream.seeds import SEED_SPAN
from ..tracks.registry import TRACKS, UNAVAILABLE
from ..tracks.sources import TaskInstance
from ..tracks.track import Role, Track
from .play import PLAY_SEED_BASE

__all__ = ["SHOWN_DEMOS", "SHOWN_SEED", "TaskBrowser", "UnknownTask"]

SHOWN_SEED = PLAY_SEED_BASE * SEED_SPAN
"""The instance seed of every task shown: the first of the viewer's range, which no schedule uses."""

SHOWN_DEMOS = 3
"""The demonstrations shown of a grid task's instance (at most its cap)."""

_FIRST = ("arc1", "arc2", "arc3")
"""The benchmark's own tracks, listed first; any other track and the packs follow by name."""

_ROLE_PHASE = {Role.STREAM: Phase.STREAM, Role.HELD_OUT: Phase.HELD_OUT}
"""The phase a task of each role is opened in (the stream's tasks as the stream serves them)."""

_TASK_ID = re.compile(r"[A-Za-z0-9_.-]+")
"""Task ids the pages can name (every id of the tracks: hex ids, game and pack names)."""

_FETCH = "fetch its data: continual-arc data fetch --track {name}"


class UnknownTask(LookupError):
    """A track, role or task the Tasks page does not know."""


@dataclass(frozen=True)
class _Listed:
    """A track's task ids by role, or why it is not shown."""

    name: str
    track: Track | None
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    problem: str | None = None


def _grid(grid: Grid) -> list[JSONValue]:
    return [list(row) for row in grid]


def _order(names: Sequence[str]) -> list[str]:
    return sorted(names, key=lambda n: (_FIRST.index(n) if n in _FIRST else len(_FIRST), n))


class TaskBrowser:
    """The tracks installed here (and the packs' tracks given), their tasks, and one instance of each.

    Args:
        packs: the tracks of rule packs given (``--pack DIR``), listed after the installed ones.
        only: the names of the tracks to list (``None``: every one; the packs given are always listed).
    """

    def __init__(self, packs: Sequence[Track] = (), *, only: Collection[str] | None = None) -> None:
        self.packs = tuple(packs)
        self.only = None if only is None else frozenset(only) | {t.name for t in self.packs}
        self._listed: dict[str, _Listed] | None = None

    def _list(self) -> dict[str, _Listed]:
        if self._listed is None:
            tracks = {**dict(TRACKS), **{t.name: t for t in self.packs}}
            listed = {name: _listing(name, track) for name, track in tracks.items()}
            listed |= {name: _Listed(name, None, problem=why) for name, why in UNAVAILABLE.items()}
            if self.only is not None:
                listed = {n: e for n, e in listed.items() if n in self.only}
            self._listed = {name: listed[name] for name in _order(list(listed))}
        return self._listed

    def index(self) -> JSONObject:
        """The ``tasks`` document: each track with its task ids by role, or how to install it."""
        tracks: list[JSONValue] = []
        for entry in self._list().values():
            track = entry.track
            roles: JSONObject = {role: list(ids) for role, ids in entry.roles.items()}
            tracks.append(
                {
                    "name": entry.name,
                    "summary": track.summary if track else "",
                    "kind": track.kind if track else None,
                    "available": entry.problem is None,
                    "install": entry.problem,
                    "sources": dict(track.sources) if track and entry.problem is None else {},
                    "roles": roles,
                    "tasks": sum(len(ids) for ids in entry.roles.values()),
                }
            )
        return {"format": 1, "seed": SHOWN_SEED, "demos": SHOWN_DEMOS, "tracks": tracks}

    def task(self, track_name: str, role: str, task_id: str) -> JSONObject:
        """The ``task/<track>/<role>/<task>`` document: one instance of the task at `SHOWN_SEED`.

        Raises:
            UnknownTask: no such track here, no such role, or the role has no such task.
        """
        entry = self._list().get(track_name)
        if entry is None or entry.track is None:
            why = f": {entry.problem}" if entry is not None and entry.problem else ""
            raise UnknownTask(f"no track {track_name!r} is installed here{why}")
        if role not in entry.roles or task_id not in entry.roles[role]:
            raise UnknownTask(f"track {track_name} has no {role} task {task_id!r}")
        head: JSONObject = {
            "format": 1,
            "track": track_name,
            "role": role,
            "task": task_id,
            "seed": SHOWN_SEED,
        }
        if entry.track.kind == "game":
            return {**head, **_game(entry.track, role, task_id)}
        return {**head, **_grid_instance(entry.track, role, task_id)}

    def names(self) -> Iterator[str]:
        """Every document name of the page (for the export): the index, then each task's."""
        yield "tasks"
        for entry in self._list().values():
            for role, ids in entry.roles.items():
                for task_id in ids:
                    if _TASK_ID.fullmatch(task_id):
                        yield f"task/{entry.name}/{role}/{task_id}"


def _listing(name: str, track: Track) -> _Listed:
    """A track's task ids by role; a track whose data is missing is listed with what to run."""
    try:
        roles = {str(role): tuple(track.source(role).task_ids()) for role in Role}
    except ContinualArcError as err:
        return _Listed(name, track, problem=f"{err} ({_FETCH.format(name=name)})")
    return _Listed(name, track, roles)


def _grid_instance(track: Track, role: str, task_id: str) -> JSONObject:
    """A grid task's instance: its first demonstrations and its test pair (the answer too)."""
    instance = track.source(Role(role)).instance(task_id, SHOWN_SEED)
    if not isinstance(instance, TaskInstance):
        raise UnknownTask(f"track {track.name} serves no grid instance of {task_id}")
    demos: list[JSONValue] = [
        [_grid(pair[0]), _grid(pair[1])]
        for pair in (instance.demonstration(i) for i in range(min(SHOWN_DEMOS, instance.demo_cap)))
    ]
    return {
        "kind": "grid",
        "source": instance.source,
        "demo_cap": instance.demo_cap,
        "demos": demos,
        "test": [_grid(instance.input), _grid(instance.output)],
    }


def _game(track: Track, role: str, task_id: str) -> JSONObject:
    """A game's opening: the first frame of a fresh level and the actions the game offers."""
    phase = _ROLE_PHASE[Role(role)]
    env = track.open(phase, task_id, SHOWN_SEED, EnvSettings())
    view = env.view(task_id, 0, 0, 0)
    if not isinstance(view, GameObservation):  # a game track's environment shows a game's view
        raise UnknownTask(f"{track.name}/{role}/{task_id} is not a game")
    return {
        "kind": "game",
        "phase": str(phase),
        "frame": view.frame,
        "actions": list(view.available_actions),
        "demo_cap": view.demo_cap,
    }
