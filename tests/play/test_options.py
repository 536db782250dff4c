from __future__ import annotations

from continual_arc.play.options import ProgressTally


def test_the_tally_counts_primary_records_as_they_come() -> None:
    records = [
        {"charge": 16, "max_cost": 16, "error": None},
        {"charge": 0, "max_cost": 16, "error": "ValueError('x')"},
        {"charge": 16, "max_cost": 16, "episode_type": "addon", "error": "boom"},  # not counted
    ]
    tally = ProgressTally()
    assert tally.budget_used() is None
    tally.update(records)
    assert (tally.instances, tally.errored, tally.budget_used()) == (2, 1, 50.0)  # 100 * (16 + 0) / 16 / 2
    records.append({"charge": 4, "max_cost": 16, "episode_type": "primary"})
    tally.update(records)
    tally.update(records)  # nothing new: nothing counted twice
    assert (tally.instances, tally.errored, tally.budget_used()) == (3, 1, 125 / 3)  # (100 + 0 + 25) / 3
