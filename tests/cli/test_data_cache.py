from __future__ import annotations

import json

import pytest

from continual_arc.cli import main
from continual_arc.data.cache import NO_CACHE_ENV, cache_stats
from continual_arc.protocol.prewarm import protocol_instances
from continual_arc.tracks.registry import get_source


def test_prewarm_fills_the_cache_with_every_generative_instance(capsys: pytest.CaptureFixture[str]) -> None:
    instances = protocol_instances("toy-smoke", [0, 1], 1)
    assert len(instances) == len({(task, seed) for _, task, seed in instances})
    assert {phase for phase, _, _ in instances} == {"stream", "seen"}  # held-out tasks are fixed pairs
    args = ["data", "cache", "--prewarm", "toy-smoke", "--seeds", "0", "1", "--demos", "3", "--jobs", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"{len(instances)} instances, {4 * len(instances)} pairs in the cache" in out
    assert cache_stats().entries == 4 * len(instances)
    _, task, seed = instances[0]
    assert get_source("toy/generative").instance(task, seed).demonstration(2) is not None
    assert cache_stats().entries == 4 * len(instances)  # served from the cache: nothing new drawn
    assert main(["data", "cache", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["cache"]["entries"] == 4 * len(instances) and shown["cache"]["enabled"]


def test_limit_clear_and_off(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    prewarm = ["data", "cache", "--prewarm", "toy-smoke", "--seeds", "0", "--demos", "0", "--jobs", "1"]
    assert main(prewarm) == 0
    assert cache_stats().entries > 0
    assert main(["data", "cache", "--max-mb", "0"]) == 0
    assert cache_stats().entries == 0 and cache_stats().max_mb == 0
    assert main(["data", "cache", "--max-mb", "-1"]) == 2
    assert main(["data", "cache", "--clear"]) == 0
    assert "cleared 0 entries" in capsys.readouterr().out
    monkeypatch.setenv(NO_CACHE_ENV, "1")
    assert main(["data", "cache", "--prewarm", "toy-smoke"]) == 2
    assert "the instance cache is off" in capsys.readouterr().err
