"""The search cache: served results equal searched ones, bad entries are searched again, writers
race safely, and a play's records are the same with the cache and without it."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
from pathlib import Path

from continual_arc.core.grids import Grid, Pair
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.dsl import Prior
from continual_arc_baselines.library import (
    DslWriter,
    PriorLibraryLearner,
    ProgramLibraryLearner,
    SearchCache,
    WriteRequest,
    default_cache_dir,
)


def _flip_task(seed: int) -> tuple[list[Pair], Grid]:
    rng = random.Random(seed)
    grids = [tuple(tuple(rng.choice([0, 0, 1, 2]) for _ in range(4)) for _ in range(3)) for _ in range(4)]
    pairs = [(grid, tuple(row[::-1] for row in grid)) for grid in grids]
    return pairs[:3], pairs[3][0]


def _request(seed: int = 0) -> WriteRequest:
    demos, test_input = _flip_task(seed)
    return WriteRequest(tuple(demos), test_input, "x")


def _entries(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.json"))


def test_the_cache_lives_in_the_data_directory() -> None:
    assert default_cache_dir() == Path(os.environ["CONTINUAL_ARC_DATA"]) / "search-cache"
    writer = DslWriter()
    writer.write(_request())
    assert len(_entries(default_cache_dir())) == 1


def test_a_served_search_equals_a_searched_one_and_costs_the_same(tmp_path: Path) -> None:
    plain = DslWriter(cache=False).write(_request())
    writer = DslWriter(cache_dir=tmp_path)
    first, second = writer.write(_request()), writer.write(_request())
    assert first == second == plain
    assert plain.programs[0].text == "flip_h"
    assert writer.cache_stats() == {"searches": 2, "cache_hits": 1}
    # The work reported is the search's own, served or not.
    assert writer.resources() == {"searches": 2.0, "applications": 2.0 * plain.work}
    assert not any(_entries(tmp_path / "never"))


def test_the_key_holds_the_prior(tmp_path: Path) -> None:
    empty, learned = DslWriter(cache_dir=tmp_path), DslWriter(cache_dir=tmp_path)
    learned.prior = Prior.empty().learn(["flip_h"])
    empty.write(_request())
    learned.write(_request())
    assert learned.cache_hits == 0 and len(_entries(tmp_path)) == 2


def test_a_damaged_entry_is_searched_again_and_replaced(tmp_path: Path) -> None:
    writer = DslWriter(cache_dir=tmp_path)
    expected = writer.write(_request())
    (entry,) = _entries(tmp_path)
    for damage in (
        "{not json",
        '{"format": 2}',
        json.dumps({**json.loads(entry.read_text() or "{}"), "work": -1}),
    ):
        entry.write_text(damage)
        assert writer.write(_request()) == expected
        assert writer.cache_hits == 0
        assert json.loads(entry.read_text())["work"] == expected.work  # rewritten whole


def test_an_entry_filed_under_another_key_is_ignored(tmp_path: Path) -> None:
    writer = DslWriter(cache_dir=tmp_path)
    writer.write(_request(0))
    (entry,) = _entries(tmp_path)
    other = writer._key(_request(5))
    misplaced = tmp_path / other[:2] / f"{other}.json"
    misplaced.parent.mkdir(parents=True, exist_ok=True)
    misplaced.write_text(entry.read_text())
    served = writer.write(_request(5))
    assert writer.cache_hits == 0
    assert served == DslWriter(cache=False).write(_request(5))


def _hammer(directory: str, key: str, rounds: int) -> None:
    cache = SearchCache(directory)
    programs = [("flip_h", ((1,) * 30,) * 30, 2.0)] * 20
    for _ in range(rounds):
        cache.write(key, programs, 7)


def test_concurrent_writers_leave_a_whole_entry(tmp_path: Path) -> None:
    key = SearchCache.key(["v"], [], ((0,),))
    cache = SearchCache(tmp_path)
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_hammer, args=(str(tmp_path), key, 150)) for _ in range(2)]
    for process in writers:
        process.start()
    reads = []
    while any(p.is_alive() for p in writers):
        reads.append(cache.read(key))
    for process in writers:
        process.join()
        assert process.exitcode == 0
    final = cache.read(key)
    assert final is not None and final["work"] == 7 and len(final["programs"]) == 20
    # A reader never saw half an entry: each read was nothing yet, or the whole entry.
    assert all(r is None or r == final for r in reads)
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


def _records(out: Path) -> bytes:
    lines = []
    for line in (out / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        timeless = {k: v for k, v in record.items() if k not in TIMING_FIELDS}  # no cache makes clocks equal
        lines.append(json.dumps(timeless, sort_keys=True))
    return "\n".join(lines).encode()


def test_records_are_the_same_with_and_without_the_cache(tmp_path: Path) -> None:
    schedule = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
    run(PriorLibraryLearner(search_cache=False), schedule, tmp_path / "off")
    for name in ("cold", "warm"):  # the same task names as the first play, so records can match
        (tmp_path / name).mkdir()
        shutil.copy(tmp_path / "off" / "alias-salt", tmp_path / name)
    cold = PriorLibraryLearner(cache_dir=str(tmp_path / "cache"))
    run(cold, schedule, tmp_path / "cold")
    warm = PriorLibraryLearner(cache_dir=str(tmp_path / "cache"))
    run(warm, schedule, tmp_path / "warm")
    assert _records(tmp_path / "off") == _records(tmp_path / "cold") == _records(tmp_path / "warm")
    assert warm.search_cache_stats()["cache_hits"] == warm.search_cache_stats()["searches"] > 0
    assert cold.search_cache_stats()["cache_hits"] < cold.search_cache_stats()["searches"]
    assert ProgramLibraryLearner(search_cache=False).search_cache_stats() == {"searches": 0, "cache_hits": 0}


def _write_when_free(directory: str, answers: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    writer = DslWriter(cache_dir=directory)
    result = writer.write(_request())
    answers.put(([p.text for p in result.programs], result.work, writer.cache_hits))


def test_a_search_claimed_elsewhere_is_awaited_and_served(tmp_path: Path) -> None:
    cache = SearchCache(tmp_path)
    key = DslWriter(cache_dir=tmp_path)._key(_request())
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    with cache.claim(key):
        waiter = context.Process(target=_write_when_free, args=(str(tmp_path), answers))
        waiter.start()
        # While this process holds the claim the waiter neither searches nor answers.
        waiter.join(timeout=3.0)
        assert waiter.is_alive() and answers.empty()
        # Store a result no search would find (the task is a flip), so that serving it shows the
        # waiter read this entry instead of searching.
        cache.write(key, [("flip_v", ((9,),), 1.0)], 1234)
    texts, work, hits = answers.get(timeout=120)
    waiter.join()
    assert (texts, work, hits) == (["flip_v"], 1234, 1)


def _claim_and_die(directory: str, key: str) -> None:
    with SearchCache(directory).claim(key):
        os._exit(0)  # killed mid-search: the claim is never released by the code


def test_a_dead_process_leaves_no_claim_behind(tmp_path: Path) -> None:
    key = DslWriter(cache_dir=tmp_path)._key(_request())  # the very search the writer then runs
    process = multiprocessing.get_context("spawn").Process(target=_claim_and_die, args=(str(tmp_path), key))
    process.start()
    process.join()
    assert process.exitcode == 0
    writer = DslWriter(cache_dir=tmp_path)
    assert writer.write(_request()) == DslWriter(cache=False).write(_request())  # did not block


def test_an_unwritable_cache_still_searches(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    writer = DslWriter(cache_dir=blocked)
    assert writer.write(_request()) == DslWriter(cache=False).write(_request())
    assert writer.cache_stats() == {"searches": 1, "cache_hits": 0}
