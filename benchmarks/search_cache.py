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

With ``--protocol`` it measures the whole protocol instead (``continual-arc protocol`` on
``--config``, default the embedded arc1), in fresh processes, at each ``--jobs`` given: the
command with the search cache off, then with an empty one, each in a fresh data directory (so
both draw their instances afresh), timed in CPU seconds of the command and every process it
started; it prints the cut and whether ``protocol.json``, ``submission.json`` and every play's
records are byte-identical (records with their clocks and task names left out: the names are
salted per run). Then ``--other`` (a learner of another kind) plays its own protocol over the
last cache filled, and its searches served from the cache are counted from its trajectories, per
play and in all.

    .venv/bin/python benchmarks/search_cache.py --protocol --jobs 1 2      # about 30 CPU-minutes
    .venv/bin/python benchmarks/search_cache.py --protocol --jobs 2 --other none
    .venv/bin/python benchmarks/search_cache.py --protocol --jobs 2 --filled DATA_DIR   # only --other
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from continual_arc.data.directory import DATA_ENV
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.runner import run
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.schedule import Schedule, build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.library import PriorLibraryLearner, ProgramLibraryLearner
from continual_arc_baselines.options import NO_SEARCH_CACHE_ENV
from cpu_clock import children_cpu


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


OTHER = "continual_arc_baselines.library:PriorLibraryLearner"
"""The learner of another kind whose protocol follows the default one's over the same cache."""

_CLI = "import sys; from continual_arc.cli import main; sys.exit(main())"


def protocol_cpu(
    out: Path, data: Path, config: str, seed: int, jobs: int, cache: bool, learner: str | None = None
) -> float:
    """Play ``continual-arc protocol`` in a fresh process; the CPU seconds it and its workers took."""
    env = {**os.environ, DATA_ENV: str(data)}
    env.pop(NO_SEARCH_CACHE_ENV, None)
    if not cache:
        env[NO_SEARCH_CACHE_ENV] = "1"
    command = [sys.executable, "-c", _CLI, "protocol", "--config", config, "--seed", str(seed)]
    command += ["--jobs", str(jobs), "--out", str(out), *(["--learner", learner] if learner else [])]
    before = children_cpu()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the protocol failed:\n{done.stderr[-2000:]}")
    return children_cpu() - before


def protocol_bytes(out: Path) -> dict[str, bytes]:
    """What must not depend on the cache: the end files, and every play's records without clocks or names."""
    found = {name: (out / name).read_bytes() for name in ("protocol.json", "submission.json")}
    for play_name in PROTOCOL_PLAYS.values():
        kept = []
        for line in (out / play_name / "records.jsonl").read_text().splitlines():
            record = json.loads(line)
            dropped = (*TIMING_FIELDS, "alias")
            kept.append(json.dumps({k: v for k, v in record.items() if k not in dropped}, sort_keys=True))
        found[play_name] = "\n".join(kept).encode()
    return found


def protocol_hits(out: Path) -> dict[str, tuple[int, int]]:
    """Per play, the searches its learner logged and how many of them the cache served."""
    counts = {}
    for play_name in PROTOCOL_PLAYS.values():
        searches = hits = 0
        for path in (out / play_name / "i").glob("*.json"):
            log = json.loads(path.read_text()).get("learner_log") or {}
            for event in log.get("events", []):
                searches += "wrote_with" in event
                hits += event.get("search_cache") == "hit"
        counts[play_name] = (searches, hits)
    return counts


def _rate(counts: dict[str, tuple[int, int]]) -> str:
    searches, hits = sum(s for s, _ in counts.values()), sum(h for _, h in counts.values())
    return f"{hits}/{searches} ({hits / searches:.1%})" if searches else "0/0"


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"


def _cut(root: Path, config: str, seed: int, jobs: int) -> bool:
    """Print the protocol's CPU time with the cache off and empty at ``jobs``; whether they agree."""
    off = protocol_cpu(root / f"off-{jobs}", root / f"data-off-{jobs}", config, seed, jobs, False)
    cold = protocol_cpu(root / f"cold-{jobs}", root / f"data-{jobs}", config, seed, jobs, True)
    same = protocol_bytes(root / f"off-{jobs}") == protocol_bytes(root / f"cold-{jobs}")
    print(
        f"  --jobs {jobs}: cache off {off:6.1f} CPU s, empty cache {cold:6.1f} CPU s, "
        f"cut {1 - cold / off:.1%}; searches served {_rate(protocol_hits(root / f'cold-{jobs}'))}; "
        f"identical: {'yes' if same else 'NO'} ({_load()})"
    )
    return same


def _other(root: Path, data: Path, config: str, seed: int, jobs: int, other: str) -> None:
    """Print the CPU time and the searches served of ``other``'s protocol over the cache in ``data``."""
    seconds = protocol_cpu(root / "other", data, config, seed, jobs, True, other)
    counts = protocol_hits(root / "other")
    print(
        f"  then {other.rsplit(':', 1)[-1]} over that cache (--jobs {jobs}): {seconds:.1f} CPU s, "
        f"searches served {_rate(counts)} ({_load()})"
    )
    print("    " + ", ".join(f"{name} {_rate({name: c})}" for name, c in counts.items()))


def measure_protocol(
    config: str, seed: int, jobs: Sequence[int], other: str | None, filled: Path | None = None
) -> int:
    """The protocol with the cache off and empty at each ``jobs``, then ``other`` over the cache.

    With ``filled`` (a data directory whose search cache a default protocol filled) only ``other``
    plays, over that cache.
    """
    print(f"continual-arc protocol --config {config} --seed {seed} ({_load()})")
    with tempfile.TemporaryDirectory(prefix="search-cache-protocol-") as tmp:
        root = Path(tmp)
        same = filled is not None or all([_cut(root, config, seed, n) for n in jobs])
        if other:
            _other(root, filled or root / f"data-{jobs[-1]}", config, seed, jobs[-1], other)
    return 0 if same else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the four plays (or, with ``--protocol``, the protocols) and print their figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", help="configuration (default arc1-smoke; with --protocol arc1)")
    parser.add_argument("--seed", type=int, default=0, help="run seed")
    parser.add_argument("--protocol", action="store_true", help="measure the whole protocol instead")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="with --protocol: its --jobs")
    parser.add_argument("--other", default=OTHER, help="with --protocol: the second learner, or 'none'")
    parser.add_argument(
        "--filled",
        type=Path,
        help="with --protocol: play only the second learner, over this data directory's search cache",
    )
    args = parser.parse_args(argv)
    if args.protocol:
        other = None if args.other == "none" else args.other
        if args.filled is not None and not (args.filled / "search-cache").is_dir():
            parser.error(f"{args.filled} holds no search-cache/ folder: play a protocol into it first")
        return measure_protocol(args.config or "arc1", args.seed, args.jobs, other, args.filled)
    args.config = args.config or "arc1-smoke"
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
    from record import run as run_benchmark

    run_benchmark("search_cache", main)
