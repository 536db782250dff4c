"""The viewer's *Leaderboard* page: a leaderboard's JSON, each result tied to the runs the viewer holds.

The view never computes a leaderboard (that is ``continual-arc leaderboard``, in ``submit``, beside
which the view sits and which it does not import): it reads the file ``continual-arc leaderboard
--json FILE`` wrote ([read_leaderboard][continual_arc.view.leaderboard.read_leaderboard]), is given
the result directories it names ([leaderboard_paths][continual_arc.view.leaderboard.leaderboard_paths]),
and ties each row, and each seed's row of a pooled one, to the catalog's protocol at that path
([leaderboard_document][continual_arc.view.leaderboard.leaderboard_document]), so that every number
on the page opens the replay of the run it was read from: U and P the stream, the reset's U and P
the reset's stream, each test's share saved that test's run, the share learned the stream.

The standing a file claims is not taken on its word: ``view`` is given each result's standing as
this reader's trusted keys judge it (``--trust KEY``), and a row the file places among the verified
that is reported here moves to the reported tables, with a line saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.files import RecordsError, read_json
from ..core.records import JSONObject, JSONValue
from .catalog import Catalog, ProtocolEntry
from .loading import json_list, json_object

__all__ = ["FORMAT", "LeaderboardFileError", "leaderboard_document", "leaderboard_paths", "read_leaderboard"]

FORMAT = 2
"""The format of the leaderboard's JSON this viewer reads (main and reported tables, pooled rows)."""


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
    if not isinstance(board, dict) or not isinstance(board.get("tables"), list):
        raise LeaderboardFileError(f"{path} is not a leaderboard written by continual-arc leaderboard --json")
    if board.get("format") != FORMAT:
        raise LeaderboardFileError(
            f"{path} was written by another release of continual-arc leaderboard (format "
            f"{board.get('format')}, this one reads {FORMAT}): write it again with "
            "continual-arc leaderboard --json"
        )
    checked: JSONObject = board
    return checked


def _objects(value: JSONValue) -> list[JSONObject]:
    """The JSON objects of a list the leaderboard holds (its tables, a table's rows, its refusals)."""
    return [json_object(item) for item in json_list(value)]


def _rows_of(tables: JSONValue) -> list[JSONObject]:
    """Every row of a list of tables, each pooled row followed by its seeds' rows."""
    rows: list[JSONObject] = []
    for table in _objects(tables):
        for row in _objects(table["rows"]):
            rows += [row, *_objects(row.get("by_seed", []))]
    return rows


def leaderboard_paths(board: JSONObject) -> list[str]:
    """The result directories a leaderboard names, ranked, reported and refused, in its order."""
    ranked = [
        str(row["path"])
        for key in ("tables", "reported", "experiments")
        for row in _rows_of(board.get(key, []))
    ]
    return list(dict.fromkeys([*ranked, *(str(r["path"]) for r in _objects(board.get("refused", [])))]))


def _by_path(catalog: Catalog) -> dict[Path, ProtocolEntry]:
    return {entry.path.resolve(): entry for entry in catalog.protocols.values()}


def _row(row: JSONObject, protocols: Mapping[Path, ProtocolEntry], live: bool) -> JSONObject:
    """A row with the run id of each play of its protocol (``None`` where it is not held), seeds too."""
    entry = protocols.get(Path(str(row["path"])).resolve())
    plays: JSONObject = dict(entry.plays) if entry is not None else {}
    shown = str(row["path"]) if live or entry is None else entry.label  # an export names no local path
    seeds: list[JSONValue] = [_row(seed, protocols, live) for seed in _objects(row.get("by_seed", []))]
    return {**row, "path": shown, "protocol": entry.id if entry else None, "runs": plays, "by_seed": seeds}


def _unplaced(refusal: JSONObject) -> JSONObject:
    """A refusal as an export shows it: its paths from the folder holding the result, not this machine's."""
    where = Path(str(refusal["path"]))
    prefix = f"{where.parent}/"
    return {
        **refusal,
        **{k: str(refusal[k]).replace(prefix, "") for k in ("reason", "command") if k in refusal},
        "path": where.name,
    }


def _demoted(row: JSONObject, standings: Mapping[str, JSONObject]) -> JSONObject | None:
    """Why a row the file ranks as verified is reported under this reader's keys (``None``: it is not)."""
    for seed in [row, *_objects(row.get("by_seed", []))]:
        here = standings.get(str(Path(str(seed["path"])).resolve()))
        if here is not None and (here.get("kind") == "reported" or not here.get("signer")):
            return here
    return None


def _placed(
    board: JSONObject, standings: Mapping[str, JSONObject] | None
) -> tuple[list[JSONObject], list[JSONObject], list[str]]:
    """The main and reported tables, with each main row this reader's keys do not vouch for moved down."""
    main: list[JSONObject] = []
    reported = [dict(t) for t in _objects(board.get("reported", []))]
    problems: list[str] = []
    for table in _objects(board["tables"]):
        kept: list[JSONValue] = []
        for row in _objects(table["rows"]):
            here = _demoted(row, standings or {})
            if here is None:
                kept.append(row)
                continue
            problems.append(
                f"{row['path']}: the leaderboard file places it as {row['status']}, but under the keys "
                f"trusted here it is reported ({here.get('reason')})"
            )
            moved = {**row, "status": "reported", "standing_reason": str(here.get("reason")), "signer": None}
            into = next(
                (t for t in reported if (t["track"], t["users"]) == (table["track"], table["users"])), None
            )
            if into is None:
                into = {"track": table["track"], "users": table["users"], "reported": True, "rows": []}
                reported.append(into)
            into["rows"] = [*json_list(into["rows"]), moved]
        main.append({**table, "rows": kept})
    for table in reported:
        rows = sorted(_objects(table["rows"]), key=_used)
        table["rows"] = [{**row, "rank": i} for i, row in enumerate(rows, 1)]
    return [t for t in main if t["rows"]], reported, problems


def _used(row: JSONObject) -> tuple[float, str, str]:
    stream = json_object(row["stream"])
    used = stream.get("budget_used")
    return (
        float(used) if isinstance(used, int | float) else float("inf"),
        str(row["name"]),
        str(row["path"]),
    )


def leaderboard_document(
    board: JSONObject,
    catalog: Catalog,
    *,
    live: bool,
    standings: Mapping[str, JSONObject] | None = None,
) -> JSONObject:
    """The *Leaderboard* page's document: the leaderboard's tables, each row tied to its runs.

    Args:
        board: the leaderboard's JSON ([read_leaderboard][continual_arc.view.leaderboard.read_leaderboard]).
        catalog: the runs and protocols the viewer was given.
        live: whether a local server answers (an export shows labels instead of local paths).
        standings: each result directory's standing under this reader's trusted keys (``kind``,
            ``reason``, ``signer``), by resolved path; a main row whose standing here is reported moves
            to the reported tables.
    """
    protocols = _by_path(catalog)
    main, reported, problems = _placed(board, standings)
    missing: set[str] = set()

    def tied(tables: list[JSONObject]) -> list[JSONValue]:
        out: list[JSONValue] = []
        for table in tables:
            rows = [_row(row, protocols, live) for row in _objects(table["rows"])]
            every = [r for row in rows for r in (_objects(row["by_seed"]) or [row])]
            missing.update(str(r["path"]) for r in every if r["protocol"] is None)
            out.append({**table, "rows": list[JSONValue](rows)})
        return out

    tables, below = tied(main), tied(reported)
    # Experiments (a teacher played instances uncharged) stay in their own tables whatever their standing.
    tried = tied([dict(t) for t in _objects(board.get("experiments", []))])
    refused: list[JSONValue] = [dict(r) if live else _unplaced(r) for r in _objects(board.get("refused", []))]
    not_here: list[JSONValue] = [
        dict(r) if live else _unplaced(r) for r in _objects(board.get("not_here", []))
    ]
    unviewed = "not among the directories viewed, so its numbers open nothing"
    shown: list[JSONValue] = [*problems, *(f"{path}: {unviewed}" for path in sorted(missing))]
    return {
        "format": FORMAT,
        "ranked_by": board.get("ranked_by"),
        "tables": tables,
        "reported": below,
        "experiments": tried,
        "not_here": not_here,
        "refused": refused,
        "problems": shown,
    }
