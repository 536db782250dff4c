"""arc2's ARC-GEN draws go through the instance cache, keyed by ARC-GEN's version."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from continual_arc.data import arcgen
from continual_arc.data.arc2_sources import check_arc2
from continual_arc.data.cache import NO_CACHE_ENV
from continual_arc.data.screen_file import screened_pool
from continual_arc.protocol.prewarm import prewarm, protocol_instances
from continual_arc.tracks.arc2 import ARC2
from continual_arc.tracks.sources import GenerativeSource

SEED = 424_242


def _served(source: Any, task: str) -> tuple[Any, ...]:
    inst = source.instance(task, SEED)
    return (inst.input, inst.output, *(inst.demonstration(k) for k in (2, 0, 1)))  # bought out of order


def _no_draws(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("drawn, though the cache holds the pair")


def test_arcgen_pairs_are_served_from_the_cache_under_their_version(
    arc2_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    task = screened_pool("arc2")[0]
    test_pair = arcgen.instance(task, SEED)
    demos = arcgen.demonstrations(task, SEED, 3, test_pair[0])  # the batch draw, without any source
    expected = (*test_pair, demos[2], demos[0], demos[1])

    monkeypatch.setenv(NO_CACHE_ENV, "1")
    assert _served(ARC2.factories["arc2/arc-gen"](), task) == expected
    monkeypatch.setenv(NO_CACHE_ENV, "0")
    assert _served(ARC2.factories["arc2/arc-gen"](), task) == expected  # drawn once more, and kept

    monkeypatch.setattr(arcgen, "draw", _no_draws)
    assert _served(ARC2.factories["arc2/arc-gen"](), task) == expected  # a new source: all from the cache

    other = GenerativeSource(  # another ARC-GEN version never meets these entries
        "arc2/arc-gen",
        screened_pool("arc2"),
        arcgen.instance,
        arcgen.demonstrations,
        versions=lambda: {**check_arc2(), "arc-gen": "another commit"},
    )
    with pytest.raises(AssertionError, match="drawn, though"):
        other.instance(task, SEED)


@pytest.mark.slow
def test_prewarming_arc2_smoke_fills_the_cache_for_its_protocol(
    arc2_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = prewarm("arc2-smoke", seeds=(0,), demos=2)
    items = protocol_instances("arc2-smoke", (0,), 1)
    assert result.instances == len(items) > 0 and result.pairs == 3 * len(items)
    monkeypatch.setattr(arcgen, "draw", _no_draws)
    source = ARC2.factories["arc2/arc-gen"]()
    for _, task, seed in items:
        instance = source.instance(task, seed)
        assert instance.demonstration(0)[0] != instance.demonstration(1)[0]
