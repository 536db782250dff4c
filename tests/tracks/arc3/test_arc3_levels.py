"""arc3's served levels: difficulties rising on the stream, and no test level equal to a stream level."""

from __future__ import annotations

import pytest

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")

from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.stream.seeds import SEED_SPAN, instance_seed
from continual_arc.tracks.arc3.levels import SEED_SPAN as ARC3_SPAN
from continual_arc.tracks.arc3.levels import SERVED_DIFFICULTIES, TEST_SEED_BASES, in_test_half
from continual_arc.tracks.arc3.source import GameSource
from continual_arc.tracks.registry import get_config, get_track
from continual_arc_games import GAMES


def test_the_test_seed_ranges_are_the_schedule_s_held_out_and_seen_ranges() -> None:
    config = get_config("arc3")
    assert ARC3_SPAN == SEED_SPAN
    bases = {
        instance_seed(config, 0, phase, 0, "keys-doors", 0) // SEED_SPAN for phase in ("held-out", "seen")
    }
    assert bases == set(TEST_SEED_BASES)
    assert instance_seed(config, 0, "stream", 0, "keys-doors", 0) // SEED_SPAN not in TEST_SEED_BASES


def test_a_stream_game_s_levels_climb_two_at_each_served_difficulty() -> None:
    source = GameSource("arc3/stream", ["keys-doors", "tilt-gravity"])
    seed = 1 * SEED_SPAN + 7  # a stream seed
    climbed = [source.placement("keys-doors", seed, k)[0] for k in range(10)]
    assert climbed == [0, 0, 1, 1, 2, 2, 3, 3, 3, 3]
    assert [source.placement("tilt-gravity", seed, k)[0] for k in range(8)] == [3, 3, 4, 4, 5, 5, 5, 5]
    assert source.placement("keys-doors", seed, 0)[1] is False  # the stream's half


def test_a_test_level_is_at_a_served_difficulty_drawn_from_its_seed_in_the_test_half() -> None:
    source = GameSource("arc3/stream", ["keys-doors"])
    placed = {source.placement("keys-doors", 4 * SEED_SPAN + s, exposure=5) for s in range(40)}
    assert {d for d, _ in placed} == {0, 1, 2, 3} and {half for _, half in placed} == {True}
    instance = source.instance("keys-doors", 4 * SEED_SPAN + 3)
    assert in_test_half(instance.level) and instance.difficulty in SERVED_DIFFICULTIES["keys-doors"]
    demo_levels = [instance.demonstration(k) for k in range(2)]
    assert len(demo_levels) == 2


def test_every_game_serves_difficulties_it_has_in_rising_order() -> None:
    assert min(len(served) for served in SERVED_DIFFICULTIES.values()) >= 3  # a progression in every game
    for game, served in SERVED_DIFFICULTIES.items():
        assert (
            served == tuple(sorted(set(served)))
            and served[0] >= 0
            and served[-1] <= GAMES[game].max_difficulty
        )


def _levels(track_name: str, schedule: object) -> dict[str, set[str]]:
    track = get_track(track_name)
    out: dict[str, set[str]] = {}
    for slot in schedule.slots:  # type: ignore[attr-defined]
        instance = track.source_for(slot.phase).instance(
            slot.task_id, slot.seed, exposure=slot.user_exposure_index
        )
        out.setdefault(slot.task_id, set()).add(instance.level.to_json())
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_seen_or_held_out_level_equals_a_stream_level_of_the_canonical_run(seed: int) -> None:
    config = get_config("arc3")
    stream = _levels("arc3", build_schedule(config, seed, epilogue=False))
    seen = _levels("arc3", test_schedule(config, seed, "seen"))
    held = _levels("arc3", test_schedule(config, seed, "held-out"))
    for game, levels in [*seen.items(), *held.items()]:
        assert not levels & stream.get(game, set()), game
    # The stream climbs: some game's stream levels are at more than one difficulty.
    assert sum(len(v) for v in stream.values()) > 100
