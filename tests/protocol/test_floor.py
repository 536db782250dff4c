"""The track's floor: played once per key into the data directory, copied beside a protocol's plays."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from continual_arc.core.files import read_json
from continual_arc.measure.reset_flags import floor_notes
from continual_arc.play.rundir import read_meta, read_records
from continual_arc.protocol import floor as floor_module
from continual_arc.protocol.floor import (
    FLOOR_CACHE,
    floor_differences,
    floor_key,
    floor_learner,
    floor_schedule,
    stream_floors,
    track_floor,
)
from continual_arc.protocol.jobs import play_job
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.protocol.report import protocol_summary
from continual_arc.stream.schedule import Schedule
from continual_arc.stream.users import with_users
from continual_arc.tracks.registry import get_config

pytestmark = pytest.mark.own_caches  # these tests read and clear the floor cache

TOY_RULE = "continual_arc.testing:ToyRuleLearner"
GRID_FLOOR = "continual_arc_baselines.floors:GridFloorLearner"


def test_the_grid_tracks_declare_the_librarys_stateless_search_as_their_floor() -> None:
    for config in ("toy-smoke", "arc1-smoke", "arc1", "arc2"):
        assert floor_learner(get_config(config)) == GRID_FLOOR


def test_the_floor_is_played_once_and_then_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[str] = []

    def counting(job: object, *args: object) -> object:
        played.append(str(job))
        return play_job(job, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(floor_module, "play_job", counting)
    schedule = floor_schedule(get_config("toy-smoke"), 3, "seen")
    first = track_floor(schedule, TOY_RULE, cache=tmp_path)
    assert first is not None and len(played) == 1
    again = track_floor(schedule, TOY_RULE, cache=tmp_path)
    assert again == first and len(played) == 1  # a cache hit plays nothing
    records = first.records()
    # the reset's schedule: the test's instances one at a time, every one after a reset
    assert len(records) == len(schedule.slots) and all(r["reset_before"] for r in records)
    assert [p.name for p in tmp_path.iterdir()] == [first.key]  # nothing partial is left behind
    # play=False never plays: a key not cached gives None
    other = floor_schedule(get_config("toy-smoke"), 4, "seen")
    assert track_floor(other, TOY_RULE, cache=tmp_path, play=False) is None and len(played) == 1


def test_the_key_depends_on_the_seed_the_test_the_users_and_the_learner() -> None:
    config = get_config("toy-smoke")
    base = floor_key(floor_schedule(config, 0, "seen"), TOY_RULE)
    assert floor_key(floor_schedule(config, 0, "seen"), TOY_RULE) == base
    others = {
        floor_key(floor_schedule(config, 1, "seen"), TOY_RULE),
        floor_key(floor_schedule(config, 0, "held-out"), TOY_RULE),
        floor_key(floor_schedule(with_users(config, 2), 0, "seen"), TOY_RULE),
        floor_key(floor_schedule(config, 0, "seen"), GRID_FLOOR),
    }
    assert base not in others and len(others) == 4


def test_the_key_is_the_same_in_another_process() -> None:
    code = (
        "from continual_arc.protocol.floor import floor_key, floor_schedule\n"
        "from continual_arc.tracks.registry import get_config\n"
        f"print(floor_key(floor_schedule(get_config('toy-smoke'), 0, 'seen'), {TOY_RULE!r}))"
    )
    there = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert there.stdout.strip() == floor_key(floor_schedule(get_config("toy-smoke"), 0, "seen"), TOY_RULE)


def test_a_copy_of_the_floor_that_differs_is_described() -> None:
    ours = [
        {"task_id": "a", "seed": 1, "charge": 4, "max_cost": 16, "solved": True, "episode_type": "primary"},
        {"task_id": "b", "seed": 2, "charge": 16, "max_cost": 16, "solved": False, "episode_type": "primary"},
    ]
    assert floor_differences(ours, ours) == []
    weakened = [{**ours[0], "charge": 16, "solved": False}, ours[1]]
    assert floor_differences(weakened, ours) == [
        "1 of 2 instance(s) differ from the floor played here (first: task a, seed 1: charge 16, not 4)"
    ]
    assert floor_differences(ours[:1], ours) == ["1 instance(s) of the floor missing, 0 not the floor's"]


@pytest.mark.heavy
def test_the_protocols_floors_land_in_the_data_directory_and_beside_its_plays(
    tmp_path: Path, _isolated_data_dir: Path
) -> None:
    out = tmp_path / "p"
    play_protocol(
        ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=out, resamples=200, plots=False)
    )
    cached = sorted((_isolated_data_dir / FLOOR_CACHE).iterdir())
    assert len(cached) == 2  # one per test, nothing else
    floors = stream_floors(read_meta(out / "stream"), play=False)  # both cached: nothing is played
    for test, floor in floors.items():
        assert floor is not None and floor.run in cached and floor.learner == GRID_FLOOR
        copy = out / f"{test}-floor"
        assert (copy / "records.jsonl").read_bytes() == (floor.run / "records.jsonl").read_bytes()
        assert {r["phase"] for r in read_records(copy)} == {test}
    # the schedule the floor played is the reset's, so their instances are the same
    for test in ("held-out", "seen"):
        keys = [
            {(r["task_id"], r["seed"]) for r in read_records(out / play)}
            for play in (f"{test}-floor", f"{test}-reset")
        ]
        assert keys[0] == keys[1]
    document = read_json(out / "submission.json")
    assert {t: document["tests"][t]["floor"] for t in ("held-out", "seen")} == {
        "held-out": "held-out-floor",
        "seen": "seen-floor",
    }


def test_a_protocol_without_its_floor_says_so(tmp_path: Path, _isolated_data_dir: Path) -> None:
    out = tmp_path / "p"
    spec, options = (
        ProtocolSpec.named(TOY_RULE, "toy-smoke"),
        ProtocolOptions(out=out, resamples=200, plots=False, floor=False),
    )
    document = play_protocol(spec, options)
    assert not (_isolated_data_dir / FLOOR_CACHE).exists() and not (out / "seen-floor").exists()
    assert read_json(out / "submission.json")["tests"]["seen"]["floor"] is None
    flags = document["plane"].flags
    assert flags is not None and floor_notes(flags) == ["floor not played"]
    assert "floor not played" in "\n".join(protocol_summary(document))


def test_no_floor_is_played_where_none_is_declared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(floor_module, "track_floor_learner", lambda track: None)
    meta = {"schedule": floor_schedule(get_config("toy-smoke"), 0, "seen").meta}
    assert stream_floors(meta, cache=tmp_path) == {"held-out": None, "seen": None}
    assert list(tmp_path.iterdir()) == []


def test_the_key_follows_the_code_that_draws_the_instances(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A developer edits a game without a new data version: the floor cached for the old code must
    # not be read. A track names such packages in `code`; a track naming none keeps its old key.
    package = tmp_path / "drawn_games"
    package.mkdir()
    (package / "__init__.py").write_text("LEVEL = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    schedule = floor_schedule(get_config("toy-smoke"), 0, "seen")
    plain = floor_key(schedule, TOY_RULE)
    named = dataclasses.replace(schedule.track, code=("drawn_games",))
    coded = Schedule(schedule.slots, schedule.meta, built_from=named)
    before = floor_key(coded, TOY_RULE)
    (package / "__init__.py").write_text("LEVEL = 2\n")
    after = floor_key(coded, TOY_RULE)
    nameless = Schedule(schedule.slots, schedule.meta, built_from=dataclasses.replace(named, code=()))
    assert len({plain, before, after}) == 3 and floor_key(nameless, TOY_RULE) == plain
