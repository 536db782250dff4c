from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.grids import Grid, Pair
from continual_arc.data import cache
from continual_arc.data.cache import InstanceCache, cache_stats, evict, namespace, set_limit
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.runner import run
from continual_arc.play.toy_learners import DemoBuyerLearner
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import TRACKS, get_config
from continual_arc.tracks.sources import GenerativeSource
from continual_arc.tracks.toy import toy_generative_source

TASK = "toy-d1-c2"


def _grid(x: int) -> Grid:
    return ((x, 0), (0, x))


PAIR: Pair = (_grid(1), _grid(2))


class Counting:
    """Toy draws that count every call."""

    def __init__(self) -> None:
        self.source = toy_generative_source()
        self.test_calls = 0
        self.demo_calls = 0

    def test_pair(self, task: str, seed: int) -> Pair:
        self.test_calls += 1
        return self.source._draw_test(task, seed)

    def demonstrations(self, task: str, seed: int, count: int, test_input: Grid) -> tuple[Pair, ...]:
        self.demo_calls += count
        return self.source._demonstrations(task, seed, count, test_input)

    def demonstration(self, task: str, seed: int, k: int, avoid: frozenset[Grid]) -> Pair:
        self.demo_calls += 1
        assert self.source._demonstration is not None
        return self.source._demonstration(task, seed, k, avoid)


def _counted(incremental: bool = True) -> tuple[GenerativeSource, Counting]:
    counts = Counting()
    source = GenerativeSource(
        "toy/generative",
        counts.source.task_ids(),
        counts.test_pair,
        counts.demonstrations,
        versions=lambda: {"toy": "1"},
        demonstration=counts.demonstration if incremental else None,
    )
    return source, counts


def _all_demos(source: GenerativeSource, seed: int) -> tuple[Pair, ...]:
    inst = source.instance(TASK, seed)
    return tuple(inst.demonstration(k) for k in range(8))  # bought one at a time


def test_each_demonstration_is_drawn_once_whatever_was_bought_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    source, counts = _counted()
    demos = _all_demos(source, 5)
    assert counts.demo_calls == 8  # not 1 + 2 + ... + 8
    reference = toy_generative_source()
    assert demos == reference._demonstrations(TASK, 5, 8, source.instance(TASK, 5).input)
    old, old_counts = _counted(incremental=False)
    assert _all_demos(old, 5) == demos
    assert old_counts.demo_calls == sum(range(1, 9))  # the batch path redraws the ones before


def test_a_warm_cache_draws_nothing_and_serves_the_same_pairs() -> None:
    cold, cold_counts = _counted()
    first = (cold.instance(TASK, 7).input, _all_demos(cold, 7))
    warm, warm_counts = _counted()
    assert (warm.instance(TASK, 7).input, _all_demos(warm, 7)) == first
    assert (cold_counts.test_calls, cold_counts.demo_calls) == (1, 8)
    assert (warm_counts.test_calls, warm_counts.demo_calls) == (0, 0)
    assert cache_stats().entries == 9
    batch, batch_counts = _counted(incremental=False)  # the same namespace: the same entries
    assert _all_demos(batch, 7) == first[1] and batch_counts.demo_calls == 0


def test_a_source_in_memory_fills_each_data_directory_it_meets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, counts = _counted()
    first = _all_demos(source, 7)
    assert cache_stats().entries == 9
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(tmp_path / "elsewhere"))
    assert cache_stats().entries == 0
    assert _all_demos(source, 7) == first  # drawn again into the new directory, not served from memory
    assert cache_stats().entries == 9 and (counts.test_calls, counts.demo_calls) == (2, 16)


def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    source, _ = _counted()
    _all_demos(source, 3)
    assert cache_stats().entries == 0 and not cache.cache_enabled()
    monkeypatch.setenv(cache.NO_CACHE_ENV, "0")
    assert cache.cache_enabled()


def _entry(store: InstanceCache, what: str = "test", seed: int = 1) -> Path:
    return Path(store._path(TASK, seed, what))


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data.replace(b" 1001", b" 3001", 1),  # a cell altered
        lambda data: data.replace(b" 1001", b" 1a01", 1),  # not a colour
        lambda data: b"",  # empty
        lambda data: b"\xff\xfe" + data,  # not text
    ],
)
def test_a_corrupt_entry_is_ignored_removed_and_drawn_again(damage: Any) -> None:
    store = InstanceCache("space")
    store.put(TASK, 1, "test", PAIR)
    assert store.get(TASK, 1, "test") == PAIR
    path = _entry(store)
    path.write_bytes(damage(path.read_bytes()))
    assert store.get(TASK, 1, "test") is None
    assert not path.exists()


def test_the_entry_format_is_compact_and_exact() -> None:
    store = InstanceCache("space")
    store.put(TASK, 1, "test", PAIR)
    lines = _entry(store).read_bytes().split(b"\n")
    assert lines[1:] == [b'["space","toy-d1-c2",1,"test"]', b"2 2 1001", b"2 2 2002", b""]
    big = (tuple(tuple((r + c) % 10 for c in range(30)) for r in range(30)), ((9,),))
    store.put(TASK, 2, "test", big)
    assert store.get(TASK, 2, "test") == big
    store.put(TASK, 3, "test", (((10,),), ((1,),)))  # not an ARC grid: not stored
    assert store.get(TASK, 3, "test") is None


def test_an_entry_written_by_hand_reads_row_by_row() -> None:
    store = InstanceCache("space")
    store.put(TASK, 4, "test", PAIR)  # makes the directory; overwritten below
    body = b'["space","toy-d1-c2",4,"test"]\n2 3 012345\n3 2 987654\n'
    _entry(store, seed=4).write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    assert store.get(TASK, 4, "test") == (((0, 1, 2), (3, 4, 5)), ((9, 8), (7, 6), (5, 4)))


def test_an_entry_under_another_key_is_refused() -> None:
    store = InstanceCache("space")
    store.put(TASK, 1, "demo-0", PAIR)
    _entry(store, "demo-0").rename(_entry(store, "demo-1"))  # hash intact, key wrong
    assert store.get(TASK, 1, "demo-1") is None
    assert namespace("a", {"v": "1"}, []) != namespace("a", {"v": "2"}, [])
    assert namespace("a", {}, [toy_generative_source]) != namespace("a", {}, [])


def _writer(root: str, seeds: list[int], rounds: int) -> int:
    os.environ["CONTINUAL_ARC_DATA"] = root
    store = InstanceCache("space")
    bad = 0
    for _ in range(rounds):
        for seed in seeds:
            store.put(TASK, seed, "test", (_grid(seed % 9 + 1), _grid(1)))
            got = store.get(TASK, seed, "test")
            bad += got is not None and got != (_grid(seed % 9 + 1), _grid(1))
    return bad


def test_concurrent_writers_never_leave_a_torn_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = str(tmp_path / "data")
    monkeypatch.setenv("CONTINUAL_ARC_DATA", root)
    with multiprocessing.get_context("fork").Pool(4) as pool:
        bad = pool.starmap(_writer, [(root, list(range(20)), 15)] * 4)
    assert bad == [0, 0, 0, 0]
    store = InstanceCache("space")
    assert all(store.get(TASK, seed, "test") == (_grid(seed % 9 + 1), _grid(1)) for seed in range(20))
    assert cache_stats().entries == 20  # no temporary file left behind


def test_least_recently_used_entries_are_evicted_past_the_limit() -> None:
    store = InstanceCache("space")
    for seed in range(6):
        store.put(TASK, seed, "test", PAIR)
        os.utime(_entry(store, seed=seed), (1000 + seed, 1000 + seed))
    store.get(TASK, 0, "test")  # the oldest, used now
    size = _entry(store).stat().st_size
    removed, freed = evict(3 * size)
    assert (removed, freed) == (3, 3 * size)
    kept = [seed for seed in range(6) if _entry(store, seed=seed).exists()]
    assert kept == [0, 4, 5]
    set_limit(0)
    assert cache_stats().entries == 0 and cache_stats().max_mb == 0
    assert json.loads((cache.cache_root() / "limit.json").read_text()) == {"max_mb": 0}


def test_a_stale_temporary_file_is_cleaned(tmp_path: Path) -> None:
    store = InstanceCache("space")
    store.put(TASK, 1, "test", PAIR)
    tmp = _entry(store).parent / ".1.test.abc.tmp"
    tmp.write_text("half")
    os.utime(tmp, (time.time() - 7200, time.time() - 7200))
    assert cache_stats().entries == 1 and not tmp.exists()


def _records(run_dir: Path) -> list[str]:
    lines = (run_dir / "records.jsonl").read_text().splitlines()
    return [json.dumps({k: v for k, v in json.loads(x).items() if k not in TIMING_FIELDS}) for x in lines]


def _trajectories(run_dir: Path) -> dict[str, Any]:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMING_FIELDS}
        return [strip(v) for v in value] if isinstance(value, list) else value

    return {p.name: strip(json.loads(p.read_text())) for p in sorted((run_dir / "i").iterdir())}


@pytest.mark.slow
def test_records_are_byte_identical_cold_warm_and_without_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schedule = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
    runs: dict[str, Path] = {}
    for name, off in (("cold", "0"), ("warm", "0"), ("off", "1")):
        monkeypatch.setenv(cache.NO_CACHE_ENV, off)
        TRACKS["arc1"]._built.clear()  # a source built afresh: nothing in memory
        out = tmp_path / name
        if runs:
            out.mkdir()
            (out / "alias-salt").write_bytes((tmp_path / "cold" / "alias-salt").read_bytes())
        run(DemoBuyerLearner(), schedule, out)
        runs[name] = out
    entries = cache_stats().entries
    assert entries == 9 * 9  # nine instances, a test pair and eight demonstrations each
    assert _records(runs["cold"]) == _records(runs["warm"]) == _records(runs["off"])
    assert _trajectories(runs["cold"]) == _trajectories(runs["warm"]) == _trajectories(runs["off"])
