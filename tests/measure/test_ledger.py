"""The proxy's ledger against a run's records: the spend outside any committed instance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from continual_arc.measure.ledger import format_outside, ledger_calls, outside_spend, read_ledger

LINES = [
    {"event": "start", "id": "a", "run": "r1", "instance": "i1"},
    {"event": "call", "id": "a", "run": "r1", "instance": "i1", "cost": 0.25},
    {"event": "call", "id": "b", "run": "r1", "instance": "i2", "cost": 0.5},
    {"event": "refused", "run": "r1", "instance": "i3"},
    {"event": "unreached", "id": "c", "run": "r1", "instance": "i3"},
    {"event": "carry", "run": "r2", "cost": 0.75},
    {"event": "call", "id": "d", "run": "r2", "instance": "i4", "cost": None},
    {"event": "call", "id": "e", "run": "r2", "instance": "i5", "cost": 1.0},
]


def _ledger(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.jsonl"
    text = "".join(json.dumps(line) + "\n" for line in LINES)
    path.write_text(text + '{"event": "call", "cost": 9\n[1, 2]\n\n')  # a line cut by a kill, a list
    return path


def test_only_call_lines_count_and_cut_lines_are_skipped(tmp_path: Path) -> None:
    entries, skipped = read_ledger(_ledger(tmp_path))
    assert skipped == 2 and len(entries) == len(LINES)
    every = ledger_calls(entries, None, skipped)
    # four call lines (a, b, d, e): 0.25 + 0.5 + 1.0 known, d's cost unknown; carry is no call
    assert (every.calls, every.cost, every.unknown_cost, every.runs) == (4, 1.75, 1, ("r1", "r2"))
    only = ledger_calls(entries, {"r1"})
    assert (only.calls, only.cost, only.unknown_cost, only.runs) == (2, 0.75, 0, ("r1",))


def test_what_the_records_do_not_count_is_outside(tmp_path: Path) -> None:
    entries, skipped = read_ledger(_ledger(tmp_path))
    outside = outside_spend(ledger_calls(entries, None, skipped), {"calls": 3.0, "cost": 1.25})
    assert (outside.calls, outside.cost, outside.over_recorded) == (1.0, 0.5, False)
    said = format_outside(outside.to_json())
    assert "1 call(s), 0.5000 USD" in said and "1 ledger call(s) of unknown cost" in said


@pytest.mark.parametrize("counted", [{"calls": 5.0, "cost": 1.0}, {"calls": 4.0, "cost": 1.8}])
def test_records_counting_more_than_the_ledger_is_a_problem(
    tmp_path: Path, counted: dict[str, float]
) -> None:
    entries, _ = read_ledger(_ledger(tmp_path))
    outside = outside_spend(ledger_calls(entries), counted)
    assert outside.over_recorded and "PROBLEM" in format_outside(outside.to_json())
