"""Time a real harness on the first rounds of arc1-smoke against the scripted model.

Usage: .venv/bin/python baselines/scripts/time-harness.py openclaw as_shipped 2 OUT [--no-compile-cache]

Prints each instance's wall time (from the harness's start to its exit) and the CPU seconds of
every process the learner started (getrusage of its children), so that a change to an adapter can
be weighed on a shared machine, where wall time follows the load and CPU time far less.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from harness_rig import MODEL, answers, rig, scripted_model
from test_harness_adapters import ADAPTERS

from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.harness import openclaw


def main(harness: str, variant: str, rounds: int, out: Path, cached: bool) -> None:
    """Play ``rounds`` rounds and print the times."""
    if not cached:
        openclaw.COMPILE_CACHE = "no-compile-cache"  # a folder that is never there
    smoke = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
    learner_class, shell, note, _ = ADAPTERS[harness]
    start = time.monotonic()
    with rig(scripted_model(answers(smoke), shell=shell, note=lambda alias: note)) as (_, proxy):
        learner = learner_class(MODEL, variant=variant, base_url=proxy.url)
        try:
            run(learner, smoke.first_rounds(rounds), out)
        finally:
            learner.close()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    for path in sorted((out / "i").glob("*.json"), key=lambda p: int(p.stem)):
        process = json.loads(path.read_text())["learner_log"]["process"]
        print(f"instance {path.stem}: {process['seconds']:.1f} s, exit {process['exit_code']}")
    cpu = used.ru_utime + used.ru_stime
    print(f"{rounds} rounds: {time.monotonic() - start:.1f} s of wall time, {cpu:.1f} CPU-seconds")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--no-compile-cache"]
    main(args[0], args[1], int(args[2]), Path(args[3]), "--no-compile-cache" not in sys.argv)
