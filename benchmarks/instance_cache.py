"""A trivial learner's whole protocol with the instance cache cold, then warm, and its records compared.

Usage: python benchmarks/instance_cache.py [--config arc1] [--learner module:Class] [--jobs N] [--no-serial]
       [--no-plots]

Each protocol plays in a fresh process (nothing in memory): into an empty data directory (cold:
every pair drawn and stored), again into the same data directory (warm: every pair read), and
with the cache off. ``--jobs`` is ``continual-arc protocol``'s (default as the command's: the CPUs,
up to 4). It prints the wall and CPU time of the start (all outside the plays and the end: the
interpreter's start and exit, the imports, the schedules), of the six plays, of the end (the
bootstrap, the plane's plot, the files) and of the whole command (the process and its workers),
and whether the protocols' records are the same (timing and task names aside). With ``--jobs`` above 1
the command's own process draws the stream's plots while the tests play: they count in the plays.
The default learner buys every demonstration and gives up: the most drawing a learner can ask for.
With ``--jobs`` above 1 it then measures the cold and warm protocol again at ``--jobs 1`` (one
process plays everything, one play after another; ``--no-serial`` skips it): there the command's
wall time follows its CPU time, cold and warm alike, where two processes shorten only the cold one's.
``--no-plots`` plays the protocols as ``protocol --no-plots`` (and a sweep with ``plots = false``) does:
matplotlib is neither imported nor run, a cost the same cold or warm.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpu_clock import children_cpu

PLAY = """
import json, resource, sys, time
from pathlib import Path
import continual_arc.protocol.play as play
times = {}
run_all, conclude = play._run_all, play.conclude
def cpu():
    both = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(u.ru_utime + u.ru_stime for u in both)
def timed_run_all(*args):
    start, used = time.perf_counter(), cpu(); drawn = run_all(*args)
    times["plays"], times["plays_cpu"] = time.perf_counter() - start, cpu() - used
    return drawn
def timed_conclude(*args):
    start, used = time.perf_counter(), cpu(); out = conclude(*args)
    times["end"], times["end_cpu"] = time.perf_counter() - start, cpu() - used
    return out
play._run_all, play.conclude = timed_run_all, timed_conclude
out, learner, config, jobs = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
plots = sys.argv[5] == "plots"
spec = play.ProtocolSpec.named(learner, config)
play.play_protocol(spec, play.ProtocolOptions(out=out, jobs=jobs, plots=plots))
print(json.dumps(times))
"""

DROPPED = ("wall_time", "learner_time", "round_time", "alias")
LEARNER = "continual_arc.testing:DemoBuyerLearner"
JOBS = min(4, os.cpu_count() or 1)


def protocol(
    out: Path, learner: str, config: str, data: Path, cache: bool, jobs: int, plots: bool
) -> dict[str, float]:
    env = {**os.environ, "CONTINUAL_ARC_DATA": str(data), "CONTINUAL_ARC_NO_CACHE": "0" if cache else "1"}
    start, cpu = time.perf_counter(), children_cpu()
    drawn = "plots" if plots else "no-plots"
    command = [sys.executable, "-c", PLAY, str(out), learner, config, str(jobs), drawn]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr[-2000:])
    times: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    times["total"] = time.perf_counter() - start
    times["cpu"] = children_cpu() - cpu  # wall time is inflated on a loaded machine; CPU is not
    # The rest: the interpreter's start and exit, the imports, the schedules, the learner's probe.
    times["start"] = times["total"] - times["plays"] - times["end"]
    times["start_cpu"] = times["cpu"] - times["plays_cpu"] - times["end_cpu"]
    return times


def _kept(value: object) -> object:
    """A JSON value without its timing and task names, at any depth."""
    if isinstance(value, dict):
        return {k: _kept(v) for k, v in value.items() if k not in DROPPED}
    if isinstance(value, list):
        return [_kept(v) for v in value]
    return value


def records(out: Path) -> dict[str, object]:
    """Every play's records, trajectories and summary, and the protocol's files, as compared."""
    found: dict[str, object] = {}
    for path in sorted(out.glob("*/records.jsonl")):
        found[str(path)] = [_kept(json.loads(line)) for line in path.read_text().splitlines()]
    for pattern in ("*/i/*.json", "*/summary.json", "protocol.json", "submission.json"):
        found.update({str(path): _kept(json.loads(path.read_text())) for path in sorted(out.glob(pattern))})
    return {str(Path(name).relative_to(out)): value for name, value in found.items()}


def measure(
    config: str = "arc1", learner: str = LEARNER, jobs: int = JOBS, with_off: bool = True, plots: bool = True
) -> None:
    """Print the protocol's times cold, warm (and with the cache off), and whether the records agree."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        runs = {}
        if with_off:
            runs["cache off"] = protocol(root / "off", learner, config, root / "data-off", False, jobs, plots)
        runs["cold cache"] = protocol(root / "cold", learner, config, root / "data", True, jobs, plots)
        runs["warm cache"] = protocol(root / "warm", learner, config, root / "data", True, jobs, plots)
        played = [records(root / name) for name in ("off", "cold", "warm") if (root / name).is_dir()]
        same = all(p == played[0] for p in played)
        found = (root / "data" / "instances").rglob("*")
        entries = sum(1 for p in found if p.is_file() and p.suffix != ".json")
    cold, warm = runs["cold cache"], runs["warm cache"]
    drawn = "" if plots else " (no plots)"
    print(
        f"{config} protocol{drawn}, {learner.rsplit(':', 1)[-1]}, jobs {jobs}; "
        f"instance cache entries: {entries}; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    heads = ("start", "(CPU)", "six plays", "(CPU)", "end", "(CPU)", "total", "(CPU)")
    keys = ("start", "start_cpu", "plays", "plays_cpu", "end", "end_cpu", "total", "cpu")
    print(f"{'':14}" + "".join(f"{head:>10}" for head in heads) + "   (seconds)")
    for label, t in runs.items():
        print(f"{label:14}" + "".join(f"{t[key]:10.1f}" for key in keys))
    ratio = {key: cold[key] / warm[key] for key in ("plays", "plays_cpu", "total", "cpu")}
    print(
        f"warm against cold: the six plays {ratio['plays']:.1f}x faster ({ratio['plays_cpu']:.1f}x in CPU "
        f"seconds), the whole command {ratio['total']:.1f}x ({ratio['cpu']:.1f}x); the end draws nothing"
    )
    print(
        f"records, trajectories, summaries, protocol.json and submission.json identical {', '.join(runs)} "
        f"(timing and task names aside): {'yes' if same else 'NO'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", default="arc1")
    parser.add_argument("--learner", default=LEARNER)
    parser.add_argument("--jobs", type=int, default=JOBS, help="plays at once (protocol --jobs)")
    parser.add_argument(
        "--no-serial", action="store_true", help="skip the second measure, cold and warm at --jobs 1"
    )
    parser.add_argument("--no-plots", action="store_true", help="play the protocols without their plots")
    args = parser.parse_args()
    measure(args.config, args.learner, args.jobs, plots=not args.no_plots)
    if args.jobs > 1 and not args.no_serial:
        print()
        measure(args.config, args.learner, 1, with_off=False, plots=not args.no_plots)


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("instance_cache", main)
