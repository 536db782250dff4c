"""Benchmark the model-free program search on Re-ARC and on the ARC-AGI-1 evaluation tasks.

Re-ARC: for each task of the screened pool (task ``i`` at instance seed ``10_000 + i``, a seed no
schedule uses) the search gets ``--demos`` demonstrations and the test input. ARC-AGI-1
evaluation: the demonstrations are a task's train pairs, the answer its first test pair. For
each Re-ARC task solved, the first candidate's program, re-parsed from its text, is also run with
no demonstrations on a second fresh instance (seed ``20_000 + i``): the kept-program case.

    .venv/bin/python benchmarks/search.py --limit 100 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import DEFAULT_BUDGET, SearchResult, execute, parse, search

REARC_SEED = 10_000
TRANSFER_SEED = 20_000


def _distinct_predictions(result: SearchResult, k: int) -> list[Grid]:
    seen: list[Grid] = []
    for candidate in result.candidates:
        if candidate.prediction not in seen:
            seen.append(candidate.prediction)
        if len(seen) == k:
            break
    return seen


def _score(task_id: str, demos: Sequence[Pair], test: Pair, budget: int) -> dict[str, Any]:
    # CPU time of this process: the figure a loaded machine does not inflate.
    start = time.process_time()
    result = search(demos, test[0], budget=budget)
    seconds = time.process_time() - start
    top = _distinct_predictions(result, 3)
    return {
        "task": task_id,
        "fitted": bool(result.candidates),
        "first": bool(top) and top[0] == test[1],
        "top3": test[1] in top,
        "program": result.candidates[0].program.text if result.candidates else None,
        "applications": result.applications,
        "seconds": seconds,
        "time_cap": result.hit_time_cap,
    }


def rearc_task(args: tuple[int, str, int, int]) -> dict[str, Any]:
    """Search one Re-ARC task and, when solved, try the kept program on a second instance."""
    from continual_arc.data import rearc

    index, task_id, demos, budget = args
    seed = REARC_SEED + index
    test = rearc.instance(task_id, seed)
    record = _score(task_id, rearc.demonstrations(task_id, seed, demos, test[0]), test, budget)
    if record["first"]:
        fresh = rearc.instance(task_id, TRANSFER_SEED + index)
        record["transfer"] = execute(parse(record["program"]), fresh[0]) == fresh[1]
    return record


def eval_task(args: tuple[int, str, int, int]) -> dict[str, Any]:
    """Search one ARC-AGI-1 evaluation task from its own train pairs; check its first test pair."""
    from continual_arc.tracks.registry import get_source
    from continual_arc.tracks.sources import FixedSource

    _, task_id, _, budget = args
    source = get_source("arc1/evaluation")
    assert isinstance(source, FixedSource)
    train, tests = source.pairs(task_id)
    return _score(task_id, train, tests[0], budget)


def _run(
    fn: Callable[[tuple[int, str, int, int]], dict[str, Any]],
    ids: Sequence[str],
    demos: int,
    budget: int,
    jobs: int,
) -> list[dict[str, Any]]:
    work = [(i, task_id, demos, budget) for i, task_id in enumerate(ids)]
    if jobs <= 1:
        return [fn(item) for item in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, work, chunksize=4))


def _share(records: Iterable[dict[str, Any]], key: str) -> str:
    values = [bool(r.get(key)) for r in records]
    return f"{sum(values)}/{len(values)} = {100 * sum(values) / max(1, len(values)):.1f} %"


def report(name: str, records: list[dict[str, Any]]) -> None:
    """Print the shares and costs of one benchmark part."""
    fitted = [r for r in records if r["fitted"]]
    seconds = [r["seconds"] for r in records]
    print(f"== {name}: {len(records)} tasks")
    print(f"  first candidate correct : {_share(records, 'first')}")
    print(f"  any of top 3 correct    : {_share(records, 'top3')}")
    print(f"  some candidate fitted   : {_share(records, 'fitted')}")
    print(f"  fitting first was right : {_share(fitted, 'first')}")
    solved = [r for r in records if "transfer" in r]
    if solved:
        print(f"  kept program transfers  : {_share(solved, 'transfer')}")
    print(f"  applications per task   : mean {statistics.mean(r['applications'] for r in records):.0f}")
    print(f"  CPU seconds per task    : mean {statistics.mean(seconds):.3f}, max {max(seconds):.3f}")
    capped = sum(r["time_cap"] for r in records)
    if capped:
        print(f"  time cap fired          : {capped} tasks")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N tasks of each set")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET, help="primitive applications per search"
    )
    parser.add_argument("--demos", type=int, default=3, help="Re-ARC demonstrations per search")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--eval", action=argparse.BooleanOptionalAction, default=True, help="also run ARC-AGI-1 eval"
    )
    parser.add_argument("--rearc", action=argparse.BooleanOptionalAction, default=True, help="run Re-ARC")
    parser.add_argument("--records", default=None, help="write per-task records (JSON lines) here")
    args = parser.parse_args(argv)

    from continual_arc.data.screen import screened_pool
    from continual_arc.tracks.registry import get_source

    parts: list[tuple[str, list[dict[str, Any]]]] = []
    if args.rearc:
        ids = screened_pool("arc1")[: args.limit]
        parts.append(
            (
                f"Re-ARC, {args.demos} demonstrations",
                _run(rearc_task, ids, args.demos, args.budget, args.jobs),
            )
        )
    if args.eval:
        ids = get_source("arc1/evaluation").task_ids()[: args.limit]
        parts.append(("ARC-AGI-1 evaluation", _run(eval_task, ids, 0, args.budget, args.jobs)))
    print(f"budget {args.budget} applications per search")
    for name, records in parts:
        report(name, records)
    if args.records:
        with open(args.records, "w") as out:
            for name, records in parts:
                for record in records:
                    out.write(json.dumps({"set": name, **record}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
