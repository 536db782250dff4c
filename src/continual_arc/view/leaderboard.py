"""The viewer's *Leaderboard* page: a leaderboard's JSON, each result tied to the runs the viewer holds.

The view never computes a leaderboard (that is ``continual-arc leaderboard``, in ``submit``, above
which the view does not reach): it reads the file ``continual-arc leaderboard --json FILE`` wrote
(:func:`read_leaderboard`), is given the result directories it names (:func:`leaderboard_paths`),
and ties each ranked row to the catalog's protocol at that path (:func:`leaderboard_document`), so
that every number on the page opens the replay of the run it was read from: U and P the stream,
the reset's U and P the reset's stream, each test's share saved that test's run, the share learned
the stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.files import RecordsError, read_json
from ..core.records import JSONObject, JSONValue
from .catalog import Catalog, ProtocolEntry
from .loading import json_list, json_object

__all__ = ["LeaderboardFileError", "leaderboard_document", "leaderboard_paths", "read_leaderboard"]


class LeaderboardFileError(ContinualArcError, ValueError):
    """A file given as a leaderboard that is not one ``continual-arc leaderboard --json`` wrote."""


def read_leaderboard(path: Path | str) -> JSONObject:
    """A leaderboard's JSON (``continual-arc leaderboard --json FILE``).

    Raises:
        LeaderboardFileError: the file is missing, not JSON, or not a leaderboard.
    """
    try:
        board = read_json(path)
    except FileNotFoundError:
        raise LeaderboardFileError(
            f"{path} does not exist: write it with continual-arc leaderboard --json"
        ) from None
    except RecordsError as err:
        raise LeaderboardFileError(f"{err}: not a leaderboard") from None
    if not isinstance(board, dict) or board.get("format") != 1 or not isinstance(board.get("tables"), list):
        raise LeaderboardFileError(f"{path} is not a leaderboard written by continual-arc leaderboard --json")
    checked: JSONObject = board
    return checked


def _objects(value: JSONValue) -> list[JSONObject]:
    """The JSON objects of a list the leaderboard holds (its tables, a table's rows, its refusals)."""
    return [json_object(item) for item in json_list(value)]


def leaderboard_paths(board: JSONObject) -> list[str]:
    """The result directories a leaderboard names, ranked and refused, in its order."""
    ranked = [str(row["path"]) for table in _objects(board["tables"]) for row in _objects(table["rows"])]
    return list(dict.fromkeys([*ranked, *(str(r["path"]) for r in _objects(board.get("refused", [])))]))


def _by_path(catalog: Catalog) -> dict[Path, ProtocolEntry]:
    return {entry.path.resolve(): entry for entry in catalog.protocols.values()}


def _row(row: JSONObject, protocols: Mapping[Path, ProtocolEntry], live: bool) -> JSONObject:
    """A ranked row with the run id of each play of its protocol (``None`` where it is not held)."""
    entry = protocols.get(Path(str(row["path"])).resolve())
    plays: JSONObject = dict(entry.plays) if entry is not None else {}
    shown = str(row["path"]) if live or entry is None else entry.label  # an export names no local path
    return {**row, "path": shown, "protocol": entry.id if entry else None, "runs": plays}


def _unplaced(refusal: JSONObject) -> JSONObject:
    """A refusal as an export shows it: its paths from the folder holding the result, not this machine's."""
    where = Path(str(refusal["path"]))
    prefix = f"{where.parent}/"
    return {**refusal, "path": where.name, "reason": str(refusal["reason"]).replace(prefix, "")}


def leaderboard_document(board: JSONObject, catalog: Catalog, *, live: bool) -> JSONObject:
    """The *Leaderboard* page's document: the leaderboard's tables, each row tied to its runs.

    Args:
        board: the leaderboard's JSON (:func:`read_leaderboard`).
        catalog: the runs and protocols the viewer was given.
        live: whether a local server answers (an export shows labels instead of local paths).
    """
    protocols = _by_path(catalog)
    tables: list[JSONValue] = []
    missing: set[str] = set()
    for table in _objects(board["tables"]):
        rows = [_row(row, protocols, live) for row in _objects(table["rows"])]
        missing |= {str(row["path"]) for row in rows if row["protocol"] is None}
        shown: list[JSONValue] = [*rows]
        tables.append({**table, "rows": shown})
    refused: list[JSONValue] = [dict(r) if live else _unplaced(r) for r in _objects(board.get("refused", []))]
    problems: list[JSONValue] = [
        f"{path}: not among the directories viewed, so its numbers open nothing" for path in sorted(missing)
    ]
    return {
        "format": 1,
        "ranked_by": board.get("ranked_by"),
        "tables": tables,
        "refused": refused,
        "problems": problems,
    }
