from __future__ import annotations

from typing import Any

import pytest

from continual_arc.sweep.table import markdown, plane_points, pooled_row, ranked, table_csv
from metrics_example import SEED0, SEED1, rec


def test_a_row_pools_every_play_and_prints_the_example() -> None:
    protocols = {
        0: {"stream": SEED0, "stream-reset": [dict(r, charge=16, solved=False) for r in SEED0]},
        1: {"stream": SEED1, "stream-reset": [dict(r, charge=16, solved=False) for r in SEED1]},
    }
    row = pooled_row("toy", "toy-smoke", 1, protocols, missing=[2], resamples=500)
    assert row.stream.budget_used == pytest.approx(325 / 6) and row.seeds == (0, 1)
    assert row.learned is not None and row.seen is None
    text = markdown([row])
    assert "| 1 | toy | toy-smoke, 1 user | 0, 1 (missing 2) | 54.2 ± 21.9 | 66.7 |" in text
    line = next(x for x in text.splitlines() if x.startswith("| 1 |"))
    assert line.endswith("| - | - |")  # no seen or held-out test among these plays
    csv = table_csv([row]).splitlines()
    assert csv[1].startswith("1,toy,toy-smoke,1,0 1,2,3,6,54.1667,21.8833,66.6667,")


def _protocol(charge: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    plays: dict[str, list[dict[str, Any]]] = {
        "stream": [rec("A", seed, charge), rec("B", seed + 1, charge, exposure=1)],
        "stream-reset": [rec("A", seed, 16), rec("B", seed + 1, 16, exposure=1)],
    }
    for test in ("seen", "held-out"):
        plays[test] = [rec("A", seed + 2, charge, test), rec("B", seed + 3, charge, test)]
        plays[f"{test}-reset"] = [rec("A", seed + 2, 16, test), rec("B", seed + 3, 16, test)]
    return plays


def test_rows_are_ranked_by_u_within_each_setting() -> None:
    rows = [
        pooled_row("worse", "toy-smoke", 1, {0: _protocol(12, 10)}, resamples=100),
        pooled_row("other setting", "toy-smoke", 2, {0: _protocol(16, 10)}, resamples=100),
        pooled_row("better", "toy-smoke", 1, {0: _protocol(4, 10), 1: _protocol(4, 20)}, resamples=100),
    ]
    order = [(rank, row.label) for rank, row in ranked(rows)]
    assert order == [(1, "better"), (2, "worse"), (1, "other setting")]
    assert plane_points(rows)[0].label == "better (toy-smoke, 1 user)"
    better = rows[2]
    assert better.seen is not None and better.seen.share_saved.value == pytest.approx(0.75)
    assert better.stream.standard_error == 0.0
