"""The worked example of docs/METRICS.md ("Pooling seeds"): two seeds' stream records, shared by tests."""

from __future__ import annotations

from typing import Any


def rec(task: str, seed: int, charge: int, phase: str = "stream", exposure: int = 0) -> dict[str, Any]:
    """A primary instance's record as measure reads it (a budget of 16 points)."""
    return {"task_id": task, "seed": seed, "charge": charge, "max_cost": 16, "solved": charge < 16,
            "phase": phase, "exposure_index": exposure, "episode_type": "primary"}  # fmt: skip


SEED0 = [rec("A", 1, 8), rec("A", 2, 0, exposure=1), rec("B", 3, 16)]
SEED1 = [rec("A", 11, 4), rec("B", 12, 8), rec("C", 13, 16)]
