"""``continual-arc view``: a local viewer of runs, protocols and results, or (``--export``) its files."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.records import JSONObject
from ..submit.standing import load_trusted, standing_of
from ..tracks.registry import TRACKS, UNAVAILABLE, use_pack
from ..tracks.track import Track
from ..view.catalog import Catalog, build_catalog
from ..view.export import export_site
from ..view.figures import SWEEP_FILE
from ..view.leaderboard import leaderboard_paths, read_leaderboard
from ..view.play import PlaySessions
from ..view.site import Site
from ..view.tasks import TaskBrowser
from .common import CliError, counter

# The server needs the ``view`` extra; the export does not, so a missing extra is reported only
# when serving is asked for.
_MISSING: str | None
try:
    from ..view.app import HOST, serve

    _MISSING = None
except ImportError as _err:
    _MISSING = _err.name or "starlette"

__all__ = ["COMMANDS", "DEFAULT_PORT", "add_commands"]

COMMANDS = ("view",)
"""The top-level commands this module adds."""

DEFAULT_PORT = 8642


def _describe(catalog: Catalog) -> None:
    print(f"{len(catalog.runs)} run(s), {len(catalog.protocols)} protocol(s)")
    for problem in catalog.problems:
        print(f"  {problem}")


def _tasks_asked(args: argparse.Namespace) -> bool:
    """Whether ``--tasks`` (other than ``none``, which wins) or ``--pack`` asks for the Tasks page."""
    return args.tasks != "none" and (bool(args.pack) or args.tasks is not None)


def _catalog(args: argparse.Namespace, paths: list[str]) -> Catalog:
    """The runs and protocols under ``paths``, described; none is refused unless the Tasks page is asked.

    The Tasks page needs no run: when it is asked for and no directory was named, a current
    directory that holds no run is passed over in silence rather than named as a problem.
    """
    catalog = build_catalog([Path(p) for p in paths])
    if not catalog.runs and _tasks_asked(args) and not args.paths:
        catalog = build_catalog([])
    _describe(catalog)
    if catalog.runs:
        return catalog
    if not _tasks_asked(args):
        raise CliError("nothing to view: give a run, protocol or results directory")
    print("no run to show: the site holds the Tasks page, and its other pages say so")
    return catalog


def _packs(folders: list[str]) -> list[Track]:
    """The tracks of the rule packs given (``--pack``), each registered once, here at the edge."""
    tracks: list[Track] = []
    for folder in folders:
        try:
            tracks.append(use_pack(folder)[1])
        except ContinualArcError as err:
            raise CliError(f"--pack {folder}: {err}") from None
    return tracks


def _tasks(choice: str | None, tracks: list[Track], *, export: bool) -> TaskBrowser | None:
    """The Tasks page's tracks: every installed one (``all``), those named, or none (no page).

    ``tracks`` are the packs' tracks (``--pack``). With no choice, a server lists every track; an
    export lists only the packs given (drawing an instance of every task of every track would take
    minutes), and has no Tasks page without them.
    """
    if choice is None:
        choice = "all" if not export else ("" if tracks else "none")
    if choice == "none":
        return None
    only = None if choice == "all" else frozenset(n.strip() for n in choice.split(",") if n.strip())
    known = {*TRACKS, *UNAVAILABLE, *(t.name for t in tracks)}
    unknown = sorted((only or set()) - known)
    if unknown:
        raise CliError(
            f"--tasks: no track is named {', '.join(unknown)} (the tracks: {', '.join(sorted(known))}, "
            "or all, or none)"
        )
    return TaskBrowser(tracks, only=only)


def _floors(catalog: Catalog, floors: list[str]) -> frozenset[str]:
    """The ids of the protocols and runs given with ``--floor`` (each is viewed too)."""
    wanted = {Path(f).resolve() for f in floors}
    found = {e.id for e in catalog.protocols.values() if e.path.resolve() in wanted}
    found |= {e.id for e in catalog.runs.values() if e.path.resolve() in wanted and e.protocol is None}
    return frozenset(found)


def _standings(args: argparse.Namespace, board: JSONObject | None) -> dict[str, JSONObject] | None:
    """Each result the leaderboard names, with its standing under the keys this reader trusts."""
    if board is None:
        return None
    trusted = load_trusted([Path(key) for key in args.trust])
    found: dict[str, JSONObject] = {}
    for path in leaderboard_paths(board):
        if not Path(path).is_dir():
            continue  # not here to judge: the page says its numbers open nothing
        standing = standing_of(Path(path), trusted)
        found[str(Path(path).resolve())] = {
            "kind": str(standing.kind),
            "reason": standing.reason,
            "signer": standing.signer,
        }
    return found


def _site(
    args: argparse.Namespace, catalog: Catalog, board: JSONObject | None, packs: list[Track], *, live: bool
) -> Site:
    return Site(
        catalog,
        live=live,
        leaderboard=board,
        standings=_standings(args, board),
        tasks=_tasks(args.tasks, packs, export=not live),
        floors=_floors(catalog, args.floor),
        sweeps=[Path(s) for s in args.sweep],
        tracks=_served(packs),
    )


class _Served(Mapping[str, Track]):
    """The tracks the viewer serves, by name: the packs given, then every installed one.

    Not a copy: an installed track is read from the registry only when a page asks for one.
    """

    def __init__(self, packs: list[Track]) -> None:
        self.packs = {track.name: track for track in packs}

    def __getitem__(self, name: str) -> Track:
        return self.packs[name] if name in self.packs else TRACKS[name]

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self.packs), **dict.fromkeys(TRACKS)})

    def __len__(self) -> int:
        return len(set(self.packs) | set(TRACKS))


def _served(packs: list[Track]) -> Mapping[str, Track]:
    """The tracks the viewer serves (`_Served`)."""
    return _Served(packs)


def _view(args: argparse.Namespace) -> int:
    board = read_leaderboard(args.leaderboard) if args.leaderboard else None
    paths = list(args.paths or ([] if board or args.floor else ["."]))
    if board is not None:
        paths += [p for p in leaderboard_paths(board) if p not in paths]  # its numbers open these runs
    paths += [p for p in args.floor if p not in paths]
    for sweep in args.sweep:
        if not (Path(sweep) / SWEEP_FILE).is_file():
            raise CliError(f"--sweep {sweep}: not a sweep's directory (it holds no {SWEEP_FILE})")
    catalog = _catalog(args, paths)
    packs = _packs(args.pack)
    if args.export:
        site = _site(args, catalog, board, packs, live=False)
        counts = export_site(catalog, Path(args.export), counter("documents"), site=site)
        page = Path(args.export) / "index.html"
        print(f"exported {counts['documents']} documents to {args.export}: open {page}")
        if counts["left_out"]:
            print(f"left out {counts['left_out']} tasks that cannot be drawn here (their cards say why)")
        return 0
    if _MISSING is not None:
        raise CliError(
            f"continual-arc view needs the view extra ({_MISSING} is not installed): "
            "pip install -e '.[view]' in the repository's clone (or use --export, which needs nothing more)"
        )
    print(f"viewing at http://{HOST}:{args.port}/ (Ctrl-C to stop)", flush=True)
    human = Path(args.record_human) if args.record_human else None
    sessions = PlaySessions(human_file=human, tracks=_served(packs))
    serve(_site(args, catalog, board, packs, live=True), args.port, sessions)
    return 0


def _add_page_options(parser: argparse.ArgumentParser) -> None:
    """The options that fill the Tasks and Figures pages (--tasks, --pack, --floor, --sweep)."""
    parser.add_argument(
        "--tasks",
        default=None,
        metavar="TRACKS",
        help="the tracks the Tasks page lists, comma-separated, or all, or none (no Tasks page); "
        "default: all installed when serving; in an export only the packs given, since it draws an "
        "instance of every task it lists",
    )
    parser.add_argument(
        "--pack",
        action="append",
        default=[],
        metavar="DIR",
        help="also list this rule pack's tasks on the Tasks page (repeatable)",
    )
    parser.add_argument(
        "--floor",
        action="append",
        default=[],
        metavar="DIR",
        help="a protocol or run directory drawn on the Figures page's learning curve as a floor: a "
        "horizontal line at its U over returns (repeatable; viewed too)",
    )
    parser.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="DIR",
        help="a sweep's directory: the Figures page draws share saved against number of users from its "
        "protocols (repeatable)",
    )


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``view`` to the root parser."""
    view = sub.add_parser(
        "view",
        help="a local replay viewer of runs, protocols and results, and a browser of every task",
        description=(
            "Serve a local web page (127.0.0.1 only) showing the runs given: their stream strip, every "
            "instance's replay, the diagnostics beside the reset, a protocol's plane, and fresh instances "
            "to play yourself, beside the Tasks and Figures pages. With --tasks or --pack and no run, "
            "it serves the Tasks page alone (every task of the tracks named), its other pages saying "
            "there is no run to show. Reads the directories, never writes to them."
        ),
    )
    view.add_argument(
        "paths",
        nargs="*",
        metavar="DIR",
        help="run, protocol or results directories (default: ., or the results a --leaderboard names; "
        "with --tasks or --pack, a . that holds no run is passed over and the Tasks page shown alone)",
    )
    view.add_argument(
        "--leaderboard",
        metavar="FILE",
        help="show this leaderboard (continual-arc leaderboard --json FILE) on a page of its own, each "
        "number opening its run; the results it names are viewed too",
    )
    view.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="KEY",
        help="also trust this verifier's public key when placing the leaderboard's rows (repeatable; "
        "the repository's verifiers are trusted): a row the file ranks as verified that no trusted key "
        "signed is shown among the reported",
    )
    _add_page_options(view)
    view.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})")
    view.add_argument(
        "--export", metavar="OUT", help="write the pages as static files into OUT instead of serving them"
    )
    view.add_argument(
        "--record-human",
        metavar="FILE",
        help="add each game level you win on the Tasks page, with the actions it took you, to this human "
        "counts file (games/src/continual_arc_games/human_actions.json is the one the benchmark reads)",
    )
    view.set_defaults(func=_view)
