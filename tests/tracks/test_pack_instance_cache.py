"""A rule pack's pairs go through the instance cache, each demonstration drawn once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from continual_arc.data import pack_draws
from continual_arc.data.pack import load_pack
from continual_arc.tracks.pack import pack_track

DEMO = Path(__file__).resolve().parents[2] / "packs" / "demo"


def test_a_packs_demonstrations_are_its_draws_and_come_back_from_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pack = load_pack(DEMO)
    track = pack_track(pack)
    stream = track.source_for("stream")
    rule = stream.task_ids()[0]
    test_pair = pack_draws.instance(pack, rule, 77)
    expected = pack_draws.demonstrations(pack, rule, 77, 4, test_pair[0])
    instance = stream.instance(rule, 77)
    assert (instance.input, instance.output) == test_pair
    assert tuple(instance.demonstration(k) for k in (3, 1, 0, 2)) == tuple(expected[k] for k in (3, 1, 0, 2))

    def no_draws(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("drawn, though the cache holds the pair")

    fresh = pack_track(load_pack(DEMO)).source_for("stream")  # a new source (screened now), nothing in memory
    monkeypatch.setattr(pack_draws, "first_accepted", no_draws)  # every draw of the pack from here on
    again = fresh.instance(rule, 77)
    assert (again.input, again.output) == test_pair
    assert tuple(again.demonstration(k) for k in range(4)) == expected
