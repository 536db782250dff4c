"""Sweeps: what two parallel plays gain over one, and what Ray adds to each play over a local pool.

Usage: python benchmarks/sweep.py [--protocols N] [--work W]

1. The speed-up of two plays at once over one: a sweep of CPU-bound plays (a learner that spins
   ``--work`` steps before every action, on toy-smoke) run with ``--engine local --max-parallel 1``
   and then 2, from nothing each time. On two cores the ideal is 2x.
2. Ray's scheduling overhead per play: a sweep of tiny plays (a learner that gives up at once)
   run on the local pool and on a local Ray instance (started beforehand; its start-up is printed
   apart), both at two at once: ``(Ray's wall time - the pool's) / units``. Skipped without Ray.

Prints times and ratios, not pass/fail; on a shared machine they move with the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from continual_arc.sweep.driver import SweepOptions, run_sweep
from continual_arc.sweep.spec import SweepSpec, parse_spec

HERE = Path(__file__).parent


def spec(learner: str, kwargs: dict[str, object], protocols: int) -> SweepSpec:
    return parse_spec(
        {
            "configs": ["toy-smoke"],
            "seeds": list(range(protocols)),
            "run": {"resamples": 200, "plots": False},
            "learners": [{"name": "bench", "class": learner, "kwargs": kwargs}],
        }
    )


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the local pool's workers)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def timed(sweep_spec: SweepSpec, engine: str, parallel: int) -> tuple[float, int, float]:
    """Wall seconds, units, and CPU seconds of a sweep (Ray's workers' CPU is not counted)."""
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu = time.perf_counter(), cpu_seconds()
        result = run_sweep(SweepOptions(sweep_spec, Path(tmp), engine=engine, max_parallel=parallel))
        seconds = time.perf_counter() - start
        cpu = cpu_seconds() - cpu
    assert result.complete, result.failures
    return seconds, len(result.status), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--protocols", type=int, default=4, help="protocols (seeds) per sweep")
    parser.add_argument("--work", type=int, default=150_000, help="loop steps before each action")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])
    busy = spec("busy_learner:Busy", {"work": args.work}, args.protocols)
    one, units, one_cpu = timed(busy, "local", 1)
    two, _, two_cpu = timed(busy, "local", 2)
    load = os.getloadavg()[0]
    print(f"CPU-bound sweep, {units} units on toy-smoke ({os.cpu_count()} CPUs here, load {load:.1f}):")
    print(f"  one play at a time   {one:7.1f} s wall, {one_cpu:7.1f} CPU s")
    print(
        f"  two plays at a time  {two:7.1f} s wall, {two_cpu:7.1f} CPU s   speed-up {one / two:.2f}x "
        "(ideal 2x on two idle cores)"
    )

    tiny = spec("continual_arc.testing:GiveUpLearner", {}, args.protocols * 2)
    local, units, _ = timed(tiny, "local", 2)
    try:
        import ray  # optional heavy dependency: the overhead is measured only where it is installed
    except ImportError:
        print("Ray is not installed (pip install 'continual-arc[ray]'): no overhead measured")
        return
    start = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - start
    try:
        on_ray, _, _ = timed(tiny, "ray", 2)
    finally:
        ray.shutdown()
    print(f"tiny sweep, {units} units, two at a time:")
    print(f"  local pool           {local:7.2f} s   ({1000 * local / units:.0f} ms a unit)")
    print(
        f"  Ray                  {on_ray:7.2f} s   ({1000 * on_ray / units:.0f} ms a unit; start-up "
        f"{started:.1f} s apart)"
    )
    print(f"  Ray's overhead per unit over the local pool: {1000 * (on_ray - local) / units:+.0f} ms")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("sweep", main)
