"""Benchmark the search cache: CPU time saved, hits across learners, records unchanged.

Plays one stream schedule (``--config``, seed ``--seed``, no epilogue) four times, in this process,
each play timed in CPU seconds of the process (after an untimed play of its first round, which
loads what every play needs):

1. the program library with the cache off;
2. the same learner with an empty cache (it fills it: a cold cache);
3. the same learner again over that cache (a warm cache: every search is served);
4. the prior-learning library over that cache: its searches coincide with the library's where its
   prior is still empty or its inputs are the same, and the hit rate says how often.

It prints each play's CPU seconds and cache hits, the warm play's saving over the play with the cache off, and
whether the records of plays 1 to 3 are the same byte for byte once their clocks are left out.

    .venv/bin/python benchmarks/search_cache.py                  # arc1-smoke, a minute or two
    .venv/bin/python benchmarks/search_cache.py --config arc1    # the canonical stream (long)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.runner import run
from continual_arc.stream.schedule import Schedule, build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.library import PriorLibraryLearner, ProgramLibraryLearner


def timeless_records(out: Path) -> bytes:
    """A play's records without the fields a clock writes (no cache can make clocks equal)."""
    kept = []
    for line in (out / "records.jsonl").read_text().splitlines():
        record = {k: v for k, v in json.loads(line).items() if k not in TIMING_FIELDS}
        kept.append(json.dumps(record, sort_keys=True))
    return "\n".join(kept).encode()


def play(learner: ProgramLibraryLearner, schedule: Schedule, out: Path, salt: Path | None) -> float:
    """Play ``schedule`` into ``out`` and return the CPU seconds it took this process."""
    out.mkdir(parents=True)
    if salt is not None:  # the same task names as the first play, so that records can match
        shutil.copy(salt, out / "alias-salt")
    start = time.process_time()
    run(learner, schedule, out)
    return time.process_time() - start


def _line(name: str, seconds: float, learner: ProgramLibraryLearner) -> None:
    stats = learner.search_cache_stats()
    hits, searches = stats["cache_hits"], stats["searches"]
    rate = f"{hits / searches:.1%}" if searches else "n/a"
    print(f"  {name:<32} CPU s {seconds:8.1f}   searches {searches:5d}   cache hits {hits:5d} ({rate})")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the four plays and print their figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", default="arc1-smoke", help="configuration of the stream played")
    parser.add_argument("--seed", type=int, default=0, help="run seed")
    args = parser.parse_args(argv)
    schedule = build_schedule(get_config(args.config), args.seed, epilogue=False)
    print(f"{args.config} stream, seed {args.seed}: {len(schedule.slots)} instances a play")
    with tempfile.TemporaryDirectory(prefix="search-cache-bench-") as tmp:
        root, cache = Path(tmp), str(Path(tmp) / "cache")
        # Untimed: the first round once, so that no timed play pays for loading the generators.
        play(ProgramLibraryLearner(search_cache=False), schedule.first_rounds(1), root / "warm-up", None)
        off = ProgramLibraryLearner(search_cache=False)
        seconds_off = play(off, schedule, root / "off", None)
        salt = root / "off" / "alias-salt"
        cold, warm = ProgramLibraryLearner(cache_dir=cache), ProgramLibraryLearner(cache_dir=cache)
        seconds_cold = play(cold, schedule, root / "cold", salt)
        seconds_warm = play(warm, schedule, root / "warm", salt)
        other = PriorLibraryLearner(cache_dir=cache)
        seconds_other = play(other, schedule, root / "other", salt)
        _line("library, cache off", seconds_off, off)
        _line("library, cold cache", seconds_cold, cold)
        _line("library, warm cache", seconds_warm, warm)
        _line("prior library, after the library", seconds_other, other)
        print(f"  warm play's CPU time saved over cache off: {1 - seconds_warm / seconds_off:.1%}")
        same = {timeless_records(root / name) for name in ("off", "cold", "warm")}
        print(f"  records off / cold / warm byte-identical  : {'yes' if len(same) == 1 else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
