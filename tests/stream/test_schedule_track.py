"""A schedule carries its typed configuration and its track: resolved once, never looked up again.

The track a schedule was built from is the registry's own object; a schedule read from a file
resolves the same object from its configuration; a copy or a pickle (a schedule sent to a worker
process) carries only the data and resolves the track again on its side.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from continual_arc.core.config import ScheduleError
from continual_arc.stream.schedule import Schedule, build_schedule, test_schedule
from continual_arc.tracks.registry import get_config, get_track

TOY = get_config("toy-smoke")


def test_a_built_schedule_carries_the_track_it_was_built_from() -> None:
    stream = build_schedule(TOY, 0)
    assert stream.track is get_track(TOY.track)
    assert stream.config == TOY
    assert stream.first_rounds(2).track is stream.track
    assert test_schedule(TOY, 0, "seen").track is get_track(TOY.track)


def test_a_schedule_read_from_a_file_resolves_its_track_from_its_configuration(tmp_path: Path) -> None:
    build_schedule(TOY, 1).save(tmp_path / "s.json")
    loaded = Schedule.load(tmp_path / "s.json")
    assert loaded.built_from is None
    assert loaded.track is get_track(TOY.track)
    assert loaded.config == TOY


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))])
def test_a_copy_carries_the_data_and_resolves_the_track_again(copier: object) -> None:
    stream = build_schedule(TOY, 2)
    assert stream.track is not None  # resolved, and cached on the original
    copied = copier(stream)  # type: ignore[operator]
    assert copied == stream
    assert copied.built_from is None and "track" not in vars(copied)
    assert copied.track is get_track(TOY.track)


def test_an_unknown_track_is_refused_in_one_sentence_when_asked_for() -> None:
    stream = build_schedule(TOY, 0)
    meta = {**stream.meta, "configuration": {**stream.meta["configuration"], "track": "no-such-track"}}
    orphan = Schedule(stream.slots, meta)  # type: ignore[arg-type]
    with pytest.raises(ScheduleError, match="no track named 'no-such-track'"):
        _ = orphan.track
