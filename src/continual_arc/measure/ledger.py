"""Spend outside any committed instance, read from the tracking proxy's ledger.

A run's records count only what its committed instances spent: the calls of a round that never
committed (the run was killed in it, or the spend cap stopped it) are in no record, yet they were
made and paid for, by the learner. The tracking proxy's ledger (``arc-baselines proxy --log FILE``:
one JSON line per event, appended and fsynced) has every call. What it holds beyond the records is
the spend outside any committed instance, and it counts as the learner's.

Only the ledger's ``call`` lines count (``event: "call"``, with ``run``, ``instance`` and ``cost`` in
USD, ``null`` when unknown); ``start``, ``carry``, ``refused`` and ``unreached`` lines are the proxy's
book-keeping, not calls. A line that is not JSON (one cut by a kill) is skipped and counted.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from ..core.records import JSONObject, JSONValue

__all__ = [
    "LedgerCalls",
    "OutsideJSON",
    "OutsideSpend",
    "format_outside",
    "ledger_calls",
    "outside_spend",
    "read_ledger",
]


@dataclass(frozen=True)
class LedgerCalls:
    """The calls a ledger holds (for the runs asked for).

    Attributes:
        calls: ``call`` lines; cost: their known cost in USD; unknown_cost: calls whose cost is unknown.
        runs: the proxy run names they were made under; skipped_lines: lines that were not JSON.
    """

    calls: int
    cost: float
    unknown_cost: int
    runs: tuple[str, ...]
    skipped_lines: int = 0


class OutsideJSON(TypedDict):
    """An `OutsideSpend` as JSON (``report`` and ``check`` show it)."""

    ledger_calls: int
    ledger_cost: float
    ledger_unknown_cost_calls: int
    ledger_runs: list[str]
    ledger_skipped_lines: int
    recorded_calls: float
    recorded_cost: float
    outside_calls: float
    outside_cost: float
    over_recorded: bool


@dataclass(frozen=True)
class OutsideSpend:
    """What the ledger holds beyond what committed records count.

    Attributes:
        ledger: the ledger's calls; recorded_calls, recorded_cost: what the records count.
        calls, cost: the difference, the spend outside any committed instance (the learner's).
        over_recorded: the records count more than the ledger holds (they cannot: a problem).
    """

    ledger: LedgerCalls
    recorded_calls: float
    recorded_cost: float
    calls: float
    cost: float
    over_recorded: bool

    def to_json(self) -> OutsideJSON:
        """The comparison as JSON."""
        return {
            "ledger_calls": self.ledger.calls,
            "ledger_cost": round(self.ledger.cost, 6),
            "ledger_unknown_cost_calls": self.ledger.unknown_cost,
            "ledger_runs": list(self.ledger.runs),
            "ledger_skipped_lines": self.ledger.skipped_lines,
            "recorded_calls": self.recorded_calls,
            "recorded_cost": round(self.recorded_cost, 6),
            "outside_calls": self.calls,
            "outside_cost": round(self.cost, 6),
            "over_recorded": self.over_recorded,
        }


def read_ledger(path: Path) -> tuple[list[JSONObject], int]:
    """The ledger's entries (JSON objects), and how many lines were not JSON objects."""
    entries: list[JSONObject] = []
    skipped = 0
    with open(path, encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                skipped += 1
                continue
            if isinstance(entry, dict):
                entries.append(entry)
            else:
                skipped += 1
    return entries, skipped


def ledger_calls(
    entries: Iterable[Mapping[str, JSONValue]], runs: Collection[str] | None = None, skipped: int = 0
) -> LedgerCalls:
    """The ``call`` lines of ``entries``, of every run or only of ``runs``."""
    calls, cost, unknown, seen = 0, 0.0, 0, set()
    for entry in entries:
        if entry.get("event") != "call" or (runs is not None and entry.get("run") not in runs):
            continue
        calls += 1
        seen.add(str(entry.get("run")))
        value = entry.get("cost")
        if isinstance(value, int | float) and not isinstance(value, bool):
            cost += float(value)
        else:
            unknown += 1
    return LedgerCalls(calls, cost, unknown, tuple(sorted(seen)), skipped)


def outside_spend(ledger: LedgerCalls, resources: Mapping[str, float]) -> OutsideSpend:
    """The ledger against the records' counters (``calls`` and ``cost``, as the model learners count).

    A tolerance of a millionth of a dollar absorbs the rounding of costs written to both files.
    """
    recorded_calls = float(resources.get("calls", 0.0))
    recorded_cost = float(resources.get("cost", 0.0))
    calls = ledger.calls - recorded_calls
    cost = ledger.cost - recorded_cost
    over = calls < 0 or cost < -1e-6
    return OutsideSpend(ledger, recorded_calls, recorded_cost, calls, cost, over)


def format_outside(outside: OutsideJSON) -> str:
    """One line for ``report`` and ``check``: what the ledger holds beyond the records (``to_json``'s)."""
    line = (
        f"spend outside any committed instance (the proxy's ledger, counted as the learner's): "
        f"{outside['outside_calls']:g} call(s), {outside['outside_cost']:.4f} USD; the ledger holds "
        f"{outside['ledger_calls']} call(s), {outside['ledger_cost']:.4f} USD, the records count "
        f"{outside['recorded_calls']:g}, {outside['recorded_cost']:.4f} USD"
    )
    if outside["ledger_unknown_cost_calls"]:
        line += f"; {outside['ledger_unknown_cost_calls']} ledger call(s) of unknown cost"
    if outside["over_recorded"]:
        line += "; PROBLEM: the records count more than the ledger holds"
    return line
