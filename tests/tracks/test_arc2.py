from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from continual_arc.core.config import CANONICAL_SEEDS
from continual_arc.data.arc2_sources import new_task_ids
from continual_arc.data.pinned import arc1_tasks
from continual_arc.data.screen import load_screen, screened_pool
from continual_arc.stream.schedule import Schedule, build_schedule, test_schedule
from continual_arc.stream.users import held_out_tasks, max_users, task_order, user_tasks, with_users
from continual_arc.tracks.registry import CONFIGS, TRACKS, get_config, get_source
from continual_arc.tracks.sources import DEMO_CAP

pytestmark = pytest.mark.network

ARC2 = get_config("arc2")


def test_the_track_declares_its_sources_and_configurations() -> None:
    track = TRACKS["arc2"]
    assert track.roles == {"stream": "arc2/arc-gen", "held-out": "arc2/evaluation"}
    assert {c.name for c in track.configs} == {"arc2", "arc2-smoke"}
    assert (
        CONFIGS["arc2"].stream_tasks == 25 and CONFIGS["arc2"].supply == 8 and CONFIGS["arc2"].held_out == 100
    )
    assert CONFIGS["arc2"].process == CONFIGS["arc1"].process  # arc1's stream process


def test_the_pool_is_the_screened_new_training_tasks(arc2_data: Path) -> None:
    stream, held_out = get_source("arc2/arc-gen"), get_source("arc2/evaluation")
    arc1 = arc1_tasks()
    old = set(arc1["train"]) | set(arc1["eval"])
    assert (
        stream.task_ids() == screened_pool("arc2") and len(stream.task_ids()) == load_screen("arc2")["passed"]
    )
    assert set(stream.task_ids()) <= set(new_task_ids("train")) and not set(stream.task_ids()) & old
    assert held_out.task_ids() == new_task_ids("eval") and len(held_out.task_ids()) == 114
    assert len(get_source("arc2/training").task_ids()) == 233
    inst = stream.instance(stream.task_ids()[0], 7)
    assert inst.demo_cap == DEMO_CAP and inst.demonstration(1) == inst.demonstration(1)
    assert stream.describe()["versions"]["arc-gen"].startswith("a15cbdb")


def test_users_and_the_held_out_test(arc2_data: Path) -> None:
    pool = screened_pool("arc2")
    assert max_users(ARC2) == len(pool) // 25
    order = task_order(ARC2)
    assert sorted(order) == sorted(pool) and order[:25] == user_tasks(ARC2, 0)
    blocks = [set(user_tasks(ARC2, u)) for u in range(max_users(ARC2))]
    assert all(not a & b for a, b in itertools.combinations(blocks, 2))
    assert len(held_out_tasks(ARC2)) == 100 and set(held_out_tasks(ARC2)) <= set(new_task_ids("eval"))
    assert held_out_tasks(with_users(ARC2, max_users(ARC2))) == held_out_tasks(ARC2)


@pytest.mark.slow
def test_arc2_schedules_rebuild_slot_for_slot_from_their_meta(arc2_data: Path, tmp_path: Path) -> None:
    schedules = [
        build_schedule(ARC2, 0, epilogue=False),
        build_schedule(ARC2, 1, reset_each=True),
        test_schedule(ARC2, 2, "held-out"),
        test_schedule(with_users(ARC2, 2), 0, "seen", width=1),
        build_schedule(with_users(ARC2, max_users(ARC2)), 0, epilogue=False),
    ]
    for k, schedule in enumerate(schedules):
        schedule.save(tmp_path / f"{k}.json")
        assert Schedule.load(tmp_path / f"{k}.json") == schedule
    stream, held = schedules[0], schedules[2]
    assert len(stream.slots) == 200 and len(held.slots) == 100
    assert stream.meta["protocol"] == {**stream.meta["protocol"], "track": "arc2", "canonical": True}
    assert {s.task_id for s in stream.slots} == set(user_tasks(ARC2, 0))
    assert all(seed in CANONICAL_SEEDS for seed in (0, 1, 2))
    smoke = build_schedule(get_config("arc2-smoke"), 0)
    assert smoke.meta["protocol"]["deviations"] == ["configuration arc2-smoke (the track's is arc2)"]
