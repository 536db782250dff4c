from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.config import ProcessParams, ScheduleError
from continual_arc.stream.process import reorder, stream_process, trace_statistics
from continual_arc.stream.rows import stream_trace
from continual_arc.stream.schedule import Schedule, build_schedule, test_schedule
from continual_arc.stream.slots import Slot, annotate
from continual_arc.stream.users import with_users
from continual_arc.tracks.registry import get_config

ARC1 = get_config("arc1")


def _key(slot: Slot, names: tuple[str, ...]) -> tuple[object, ...]:
    return tuple(getattr(slot, n) for n in names)


TOY = get_config("toy-smoke")


def test_same_config_and_seed_give_byte_identical_files(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom continual_arc.stream.schedule import build_schedule\n"
        "from continual_arc.stream.users import with_users\n"
        "from continual_arc.tracks.registry import get_config\n"
        "sys.stdout.write(build_schedule(with_users(get_config('arc1'), 4), 1).dumps())"
    )
    outs = [
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": hs},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hs in ("0", "4242")
    ]
    assert outs[0] == outs[1] == build_schedule(with_users(ARC1, 4), 1).dumps()


def test_every_task_is_served_its_supply_in_order_of_phases() -> None:
    schedule = build_schedule(ARC1, 0)
    stream = [s for s in schedule.slots if s.phase == "stream"]
    assert len(stream) == 200
    assert set(Counter(s.task_id for s in stream).values()) == {8}
    phases = [s.phase for s in schedule.slots]
    assert phases == ["stream"] * 200 + ["epilogue"] * 100
    assert schedule.rounds == 300
    assert build_schedule(ARC1, 0, epilogue=False).slots[-1].phase != "epilogue"


def test_exposure_metadata_counts_times_and_steps() -> None:
    schedule = build_schedule(ARC1, 0, epilogue=False)
    seen: dict[str, list[int]] = {}
    for slot in schedule.slots:
        history = seen.setdefault(slot.task_id, [])
        assert slot.exposure_index == slot.user_exposure_index == len(history)
        assert slot.gap == slot.user_gap == (slot.step - history[-1] if history else None)
        history.append(slot.step)


def test_user_zero_walks_the_individual_stream() -> None:
    single = build_schedule(ARC1, 3, epilogue=False)
    many = build_schedule(with_users(ARC1, 8), 3, epilogue=False)
    user0 = [s for s in many.slots if s.user == 0]
    names = ("round", "phase", "task_id", "seed", "reset_before", "exposure_index", "gap")
    assert [_key(s, names) for s in user0] == [_key(s, names) for s in single.slots]


def test_fewer_users_is_more_users_cut_to_the_first_users() -> None:
    few = build_schedule(with_users(ARC1, 2), 0)
    many = build_schedule(with_users(ARC1, 4), 0)
    names = ("round", "user", "phase", "task_id", "seed", "reset_before", "user_exposure_index", "user_gap")
    assert [_key(s, names) for s in many.slots if s.user < 2] == [_key(s, names) for s in few.slots]


def test_users_bring_tasks_of_their_own_and_share_the_held_out_tasks() -> None:
    schedule = build_schedule(with_users(ARC1, 4), 0)
    by_user = [{s.task_id for s in schedule.slots if s.user == u and s.phase == "stream"} for u in range(4)]
    assert all(len(tasks) == 25 for tasks in by_user)
    assert len(set().union(*by_user)) == 100
    epilogue = [
        {s.task_id for s in schedule.slots if s.user == u and s.phase == "epilogue"} for u in range(4)
    ]
    assert all(tasks == epilogue[0] for tasks in epilogue) and len(epilogue[0]) == 100
    for group in schedule.round_slots():
        assert [s.user for s in group] == [0, 1, 2, 3]
        assert len({s.phase for s in group}) == 1


def test_team_exposure_is_shared_by_users_meeting_a_task_in_one_round() -> None:
    rows = [
        (0, 0, "epilogue", "a", 1, False),
        (0, 1, "epilogue", "a", 2, False),
        (1, 0, "epilogue", "a", 3, False),
    ]
    slots = annotate(rows)
    assert [(s.exposure_index, s.gap) for s in slots] == [(0, None), (0, None), (1, 1)]
    assert [(s.user_exposure_index, s.user_gap) for s in slots] == [(0, None), (0, None), (1, 1)]


def test_first_rounds_is_a_literal_prefix_and_a_deviation() -> None:
    full = build_schedule(with_users(ARC1, 16), 0, epilogue=False)
    cut = full.first_rounds(20)
    assert cut.slots == full.slots[: 20 * 16]
    assert cut.meta["rounds_cut"] == 20
    assert cut.meta["protocol"]["deviations"] == ["stream cut at round 20"]
    assert build_schedule(with_users(ARC1, 16), 0, epilogue=False, rounds=20).slots == cut.slots
    assert full.first_rounds(10_000) is full


def test_seen_test_seeds_never_appear_in_stream_or_epilogue() -> None:
    for users in (1, 4):
        config = with_users(ARC1, users)
        stream = {s.seed for s in build_schedule(config, 0).slots}
        seen = {s.seed for s in test_schedule(config, 0, "seen").slots}
        held = {s.seed for s in test_schedule(config, 0, "held-out").slots}
        assert not stream & seen and not stream & held and not seen & held


def test_held_out_test_is_the_same_at_every_number_of_users() -> None:
    one = test_schedule(ARC1, 0, "held-out")
    sixteen = test_schedule(with_users(ARC1, 16), 0, "held-out")
    assert [(s.task_id, s.seed) for s in one.slots] == [(s.task_id, s.seed) for s in sixteen.slots]
    assert len(one.slots) == 100 and one.rounds == 1
    assert [s.user for s in one.slots] == list(range(100))


@pytest.mark.parametrize(
    ("users", "size", "per_task"), [(1, 100, 4), (2, 100, 2), (4, 100, 1), (8, 200, 1), (16, 400, 1)]
)
def test_seen_test_spreads_over_every_users_tasks(users: int, size: int, per_task: int) -> None:
    config = with_users(ARC1, users)
    seen = test_schedule(config, 0, "seen")
    stream_tasks = {s.task_id: s.user for s in build_schedule(config, 0, epilogue=False).slots}
    assert len(seen.slots) == size and seen.rounds == 1
    assert set(Counter(s.task_id for s in seen.slots).values()) == {per_task}
    assert [stream_tasks[s.task_id] for s in seen.slots] == [i % users for i in range(size)]


def test_width_and_reset_flags() -> None:
    wide = test_schedule(ARC1, 0, "seen")
    assert not any(s.reset_before for s in wide.slots)
    narrow = test_schedule(ARC1, 0, "seen", width=8)
    assert narrow.rounds == 13 and all(s.reset_before for s in narrow.slots)
    assert [s.user for s in narrow.slots[:10]] == [0, 1, 2, 3, 4, 5, 6, 7, 0, 1]
    assert [(s.task_id, s.seed) for s in narrow.slots] == [(s.task_id, s.seed) for s in wide.slots]
    reset = build_schedule(ARC1, 0, reset_each=True)
    plain = build_schedule(ARC1, 0)
    assert all(s.reset_before for s in reset.slots)
    assert [(s.task_id, s.seed) for s in reset.slots] == [(s.task_id, s.seed) for s in plain.slots]
    assert reset.meta["protocol"]["canonical"]


def test_fresh_order_serves_the_held_out_tests_instances_wiped() -> None:
    fresh = build_schedule(ARC1, 0, order="fresh")
    held = test_schedule(ARC1, 0, "held-out")
    assert [(s.task_id, s.seed, s.phase) for s in fresh.slots] == [
        (s.task_id, s.seed, s.phase) for s in held.slots
    ]
    assert all(s.reset_before for s in fresh.slots) and fresh.rounds == 100
    with pytest.raises(ScheduleError, match="one user"):
        build_schedule(with_users(ARC1, 2), 0, order="fresh")


def test_orders_rearrange_the_same_instances() -> None:
    base = build_schedule(ARC1, 0, epilogue=False)
    for order in ("sequential", "random"):
        other = build_schedule(ARC1, 0, epilogue=False, order=order)
        assert sorted((s.task_id, s.seed) for s in other.slots) == sorted(
            (s.task_id, s.seed) for s in base.slots
        )
        assert other.meta["protocol"]["deviations"] == [f"order {order} (an ablation)"]
    sequential = [s.task_id for s in build_schedule(ARC1, 0, epilogue=False, order="sequential").slots]
    assert [sequential[i] for i in range(0, 200, 8)] == list(dict.fromkeys(sequential))


def test_protocol_block_names_each_deviation() -> None:
    assert build_schedule(ARC1, 5, epilogue=False).meta["protocol"]["deviations"] == [
        "seed 5 (canonical seeds: 0, 1, 2)"
    ]
    three = build_schedule(with_users(ARC1, 3), 0, epilogue=False)
    assert three.meta["protocol"]["deviations"] == ["3 users (canonical: 1, 2, 4, 8, 16)"]
    smoke = build_schedule(get_config("arc1-smoke"), 0)
    assert smoke.meta["protocol"]["deviations"] == ["configuration arc1-smoke (the track's is arc1)"]


def test_users_past_the_pool_are_refused() -> None:
    with pytest.raises(
        ScheduleError, match="arc1 serves 1 to 16 users: its pool holds 400 tasks, 25 per user; 17"
    ):
        with_users(ARC1, 17)
    assert with_users(TOY, 21).users == 21
    with pytest.raises(ScheduleError, match="serves 1 to 21 users"):
        with_users(TOY, 22)


def test_save_load_round_trip(tmp_path: Path) -> None:
    schedule = build_schedule(with_users(ARC1, 2), 1, rounds=7)
    schedule.save(tmp_path / "s.json")
    assert Schedule.load(tmp_path / "s.json") == schedule


def _tamper(tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    schedule = build_schedule(get_config("arc1-smoke"), 0)
    document = schedule.to_json()
    edit(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["slots"][3].update(task_id="007bbfb7"), "slot 3 does not match its meta: task_id"),
        (
            lambda d: d["slots"][2].update(seed=d["slots"][2]["seed"] + 1),
            "slot 2 does not match its meta: seed",
        ),
        (lambda d: d["slots"].pop(), "slots, but the schedule its meta describes has"),
        (lambda d: d["slots"].insert(1, d["slots"].pop(2)), "slot 1 has step 2"),
        (
            lambda d: d["slots"][4].update(exposure_index=9),
            "slot 4 does not match its meta: exposure_index 9 (expected",
        ),
        (lambda d: d["slots"][0].update(user="0"), "slot 0: user is '0', not an integer"),
        (lambda d: d["slots"][0].pop("phase"), "slot 0 lacks phase"),
        (lambda d: d["meta"].update(seed=1), "slot 0 does not match its meta"),
        (lambda d: d["meta"]["protocol"].update(canonical=True), "meta protocol is"),
        (lambda d: d.update(format=7), "schedule format 7; this release reads 1"),
        (lambda d: d.pop("slots"), "not a schedule file"),
    ],
)
def test_malformed_or_contradicted_files_are_refused(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScheduleError, match=message.replace("(", r"\(")):
        Schedule.load(_tamper(tmp_path, edit))


def test_custom_schedules_skip_the_rebuild_but_not_the_history(tmp_path: Path) -> None:
    def custom(d):  # type: ignore[no-untyped-def]
        d["meta"]["order"] = "custom"

    assert Schedule.load(_tamper(tmp_path, custom)).meta["order"] == "custom"

    def bad_history(d):  # type: ignore[no-untyped-def]
        custom(d)
        d["slots"][4]["exposure_index"] = 9

    with pytest.raises(ScheduleError, match="slot 4 has exposure metadata that its history contradicts"):
        Schedule.load(_tamper(tmp_path, bad_history))

    def shared_seed(d):  # type: ignore[no-untyped-def]
        custom(d)
        d["slots"][1]["seed"] = d["slots"][0]["seed"]

    with pytest.raises(ScheduleError, match="slots 0 and 1 share instance seed"):
        Schedule.load(_tamper(tmp_path, shared_seed))


def test_unparseable_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"format": 1,')
    with pytest.raises(ScheduleError, match=r"x\.json: not valid JSON"):
        Schedule.load(tmp_path / "x.json")
    with pytest.raises(ScheduleError, match="cannot read schedule file"):
        Schedule.load(tmp_path / "missing.json")


def test_stream_statistics_over_seeds_0_to_9() -> None:
    rows = [trace_statistics(stream_trace(ARC1, seed)) for seed in range(10)]
    assert all(r["min_supply"] == r["max_supply"] == 8 for r in rows)
    assert 3.5 <= statistics.fmean(r["mean_active"] for r in rows) <= 4.5  # about four active at a time
    assert 2.5 <= statistics.fmean(r["mean_spell"] for r in rows) <= 3.5  # spells of about three
    assert 25 <= statistics.fmean(r["median_rest"] for r in rows) <= 38  # rests of about thirty
    assert 3.5 <= statistics.median(r["median_gap"] for r in rows) <= 6  # median return gap about 5
    assert 100 <= statistics.median(r["max_gap"] for r in rows) <= 180  # at most around 140
    assert min(r["last_new"] for r in rows) >= 60  # new tasks keep arriving, not only at the start


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefghij"), min_size=1, max_size=10, unique=True),
    st.integers(1, 9),
    st.integers(1, 6),
    st.floats(1, 6),
    st.integers(0, 2**32),
)
def test_process_serves_every_task_its_supply(
    tasks: list[str], supply: int, active: int, spell: float, seed: int
) -> None:
    params = ProcessParams(max_active=active, spell_mean=spell, rest_median=5.0)
    trace = stream_process(tasks, supply, params, random.Random(seed))
    assert Counter(trace.visits) == dict.fromkeys(tasks, supply)
    assert all(1 <= a <= active for a in trace.active)
    again = stream_process(list(reversed(tasks)), supply, params, random.Random(seed))
    assert again.visits == trace.visits
    assert sorted(reorder(trace.visits, "random", random.Random(1))) == sorted(trace.visits)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 21), st.integers(0, 10**6), st.booleans(), st.booleans(), st.integers(1, 40))
def test_any_toy_schedule_is_consistent_and_verifies(
    users: int, seed: int, epilogue: bool, reset: bool, rounds: int
) -> None:
    schedule = build_schedule(
        with_users(TOY, users), seed, epilogue=epilogue, reset_each=reset, rounds=rounds
    )
    assert Schedule.from_json(json.loads(schedule.dumps())) == schedule
    assert all(s.reset_before == reset for s in schedule.slots)
    for group in schedule.round_slots():
        assert [s.user for s in group] == list(range(users)) and len({s.phase for s in group}) == 1
    assert isinstance(schedule.slots[0], Slot)
