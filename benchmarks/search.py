"""Benchmark the model-free program search on Re-ARC and ARC-AGI-1, under an empty and learned priors.

Sets:

* ``rearc``: each task of the screened pool (task ``i`` at instance seed ``10_000 + i``, a seed no
  schedule uses) with ``--demos`` demonstrations and the test input. For each task solved, the
  first candidate's program, re-parsed from its text, also runs with no demonstrations on a second
  fresh instance (seed ``20_000 + i``): the kept-program case.
* ``eval``: the 400 ARC-AGI-1 evaluation tasks, from their own train pairs; the answer is the first
  test pair's. (``heldout`` is the arc1 configuration's 100 of them.)
* ``train``: the 400 ARC-AGI-1 training tasks from their own pairs (the tasks Re-ARC generates).
* ``train2``: the 233 training tasks new to ARC-AGI-2 (none is an ARC-AGI-1 task), from their own
  pairs: a second set to tune on, harder than ``train`` and unlike it.
* ``arcgen``: the arc2 track's screened pool (147 of those tasks), drawn from their ARC-GEN
  generators as ``rearc`` draws from Re-ARC's (same seeds, same kept-program check): the instances
  the arc2 learner meets. It needs ARC-GEN's data (``continual-arc data fetch --track arc2``).

Priors (``--priors``): ``empty``; ``stream``, learned from the programs the empty-prior search
finds right on one Re-ARC instance (seed ``30_000 + i``) of each of the arc1 stream's 25 tasks
(user 0 at task seed 0); ``training``, the same over all 400 Re-ARC tasks. The learning instances
are never the ones measured, but ``training`` has met every Re-ARC task (and ``stream`` 25 of
them), so its Re-ARC row reads seen tasks; its ARC-AGI-1 evaluation row reads tasks it never met.

    .venv/bin/python benchmarks/search.py                                   # everything
    .venv/bin/python benchmarks/search.py --limit 100 --priors empty        # a quick look
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import DEFAULT_BUDGET, Prior, SearchResult, execute, parse, search
from continual_arc_baselines.dsl.ops import CATALOGUES, DEFAULT

REARC_SEED = 10_000
TRANSFER_SEED = 20_000
LEARN_SEED = 30_000
SETS = ("rearc", "eval", "heldout", "train", "train2", "arcgen")
GENERATED = ("rearc", "arcgen")
"""The sets drawn from generators, with ``--demos`` demonstrations."""
PRIORS = ("empty", "stream", "training")

Job = tuple[int, str, int, int, dict[str, Any], str]
"""A task's index in its set, its id, demonstrations, budget, prior (as JSON) and catalogue name."""


def _distinct_predictions(result: SearchResult, k: int) -> list[Grid]:
    seen: list[Grid] = []
    for candidate in result.candidates:
        if candidate.prediction not in seen:
            seen.append(candidate.prediction)
        if len(seen) == k:
            break
    return seen


def _score(
    task_id: str, demos: Sequence[Pair], test: Pair, budget: int, prior: Prior, catalogue: str
) -> dict[str, Any]:
    # CPU time of this process: the figure a loaded machine inflates least.
    start = time.process_time()
    result = search(demos, test[0], budget=budget, prior=prior, catalogue=CATALOGUES[catalogue])
    seconds = time.process_time() - start
    top = _distinct_predictions(result, 3)
    first = bool(top) and top[0] == test[1]
    return {
        "task": task_id,
        "fitted": bool(result.candidates),
        "first": first,
        "top3": test[1] in top,
        "program": result.candidates[0].program.text if result.candidates else None,
        "applications": result.applications,
        "to_first_correct": result.candidates[0].found_at if first else None,
        "seconds": seconds,
        "time_cap": result.hit_time_cap,
    }


def _generated(draws: Any, job: Job) -> dict[str, Any]:
    """Search one generated task and, when solved, try the kept program on a second instance."""
    index, task_id, demos, budget, prior, catalogue = job
    seed = REARC_SEED + index
    test = draws.instance(task_id, seed)
    given = draws.demonstrations(task_id, seed, demos, test[0])
    record = _score(task_id, given, test, budget, Prior.from_json(prior), catalogue)
    if record["first"]:
        fresh = draws.instance(task_id, TRANSFER_SEED + index)
        record["transfer"] = execute(parse(record["program"]), fresh[0]) == fresh[1]
    return record


def rearc_task(job: Job) -> dict[str, Any]:
    """Search one Re-ARC task and, when solved, try the kept program on a second instance."""
    from continual_arc.data import rearc

    return _generated(rearc, job)


def arcgen_task(job: Job) -> dict[str, Any]:
    """Search one ARC-GEN task of the arc2 pool, as `rearc_task` searches a Re-ARC one."""
    from continual_arc.data import arcgen

    return _generated(arcgen, job)


def learn_task(job: Job) -> str | None:
    """The empty-prior search's first program on a learning instance of a Re-ARC task, if right."""
    from continual_arc.data import rearc

    index, task_id, demos, budget, _, catalogue = job
    seed = LEARN_SEED + index
    test = rearc.instance(task_id, seed)
    given = rearc.demonstrations(task_id, seed, demos, test[0])
    result = search(given, test[0], budget=budget, catalogue=CATALOGUES[catalogue])
    if result.candidates and result.candidates[0].prediction == test[1]:
        return result.candidates[0].program.text
    return None


def fixed_task(source_name: str, job: Job) -> dict[str, Any]:
    """Search one ARC-AGI-1 task from its own train pairs; check its first test pair."""
    from continual_arc.tracks.registry import get_source
    from continual_arc.tracks.sources import FixedSource

    _, task_id, _, budget, prior, catalogue = job
    source = get_source(source_name)
    assert isinstance(source, FixedSource)
    train, tests = source.pairs(task_id)
    return _score(task_id, train, tests[0], budget, Prior.from_json(prior), catalogue)


eval_task = functools.partial(fixed_task, "arc1/evaluation")
train_task = functools.partial(fixed_task, "arc1/training")
train2_task = functools.partial(fixed_task, "arc2/training")


def _map(fn: Callable[[Job], Any], jobs: list[Job], workers: int) -> list[Any]:
    if workers <= 1:
        return [fn(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, jobs, chunksize=2))


def _share(records: Iterable[dict[str, Any]], key: str) -> str:
    values = [bool(r.get(key)) for r in records]
    return f"{sum(values)}/{len(values)} = {100 * sum(values) / max(1, len(values)):.1f} %"


def report(name: str, records: list[dict[str, Any]]) -> None:
    """Print the shares and costs of one benchmark part."""
    fitted = [r for r in records if r["fitted"]]
    seconds = [r["seconds"] for r in records]
    reached = [r["to_first_correct"] for r in records if r["to_first_correct"] is not None]
    print(f"== {name}: {len(records)} tasks")
    print(f"  first candidate correct   : {_share(records, 'first')}")
    print(f"  any of top 3 correct      : {_share(records, 'top3')}")
    print(f"  some candidate fitted     : {_share(records, 'fitted')}")
    print(f"  fitting first was right   : {_share(fitted, 'first')}")
    solved = [r for r in records if "transfer" in r]
    if solved:
        print(f"  kept program transfers    : {_share(solved, 'transfer')}")
    print(f"  applications per search   : mean {statistics.mean(r['applications'] for r in records):.0f}")
    if reached:
        print(f"  applications to 1st right : mean {statistics.mean(reached):.0f} over the tasks solved")
    print(f"  CPU seconds per search    : mean {statistics.mean(seconds):.3f}, max {max(seconds):.3f}")
    capped = sum(r["time_cap"] for r in records)
    if capped:
        print(f"  time cap fired            : {capped} tasks")


def _learn(tasks: Sequence[str], pool: Sequence[str], args: argparse.Namespace) -> Prior:
    jobs: list[Job] = [(pool.index(t), t, args.demos, args.budget, {}, args.catalogue) for t in tasks]
    programs = [p for p in _map(learn_task, jobs, args.jobs) if p is not None]
    print(f"prior learned from {len(programs)} programs right on {len(tasks)} tasks")
    return Prior.empty().learn(programs)


def priors(names: Sequence[str], args: argparse.Namespace) -> dict[str, Prior]:
    """The priors to measure under, learning the ones that need it."""
    from continual_arc.data.screen import screened_pool
    from continual_arc.stream.users import user_tasks
    from continual_arc.tracks.registry import get_config

    pool = screened_pool("arc1")
    made: dict[str, Prior] = {}
    for name in names:
        if name == "empty":
            made[name] = Prior.empty()
        elif name == "stream":
            made[name] = _learn(user_tasks(get_config("arc1"), 0), pool, args)
        else:
            made[name] = _learn(pool, pool, args)
    return made


def _ids(name: str) -> list[str]:
    from continual_arc.data.screen import screened_pool
    from continual_arc.stream.users import held_out_tasks
    from continual_arc.tracks.registry import get_config, get_source

    if name == "rearc":
        return list(screened_pool("arc1"))
    if name == "arcgen":
        return list(screened_pool("arc2"))
    if name == "heldout":
        return list(held_out_tasks(get_config("arc1")))
    fixed = {"eval": "arc1/evaluation", "train": "arc1/training", "train2": "arc2/training"}
    return list(get_source(fixed[name]).task_ids())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sets", default="rearc,eval", help=f"comma-separated, of {', '.join(SETS)}")
    parser.add_argument("--priors", default=",".join(PRIORS), help=f"comma-separated, of {', '.join(PRIORS)}")
    parser.add_argument("--limit", type=int, default=None, help="only the first N tasks of each set")
    parser.add_argument("--every", type=int, default=1, help="only every K-th task of each set (a sample)")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET, help="primitive applications per search"
    )
    parser.add_argument(
        "--catalogue",
        default=DEFAULT.name,
        choices=sorted(CATALOGUES),
        help=f"the steps searched (default {DEFAULT.name}, every stored run's; core: the first families)",
    )
    parser.add_argument("--demos", type=int, default=3, help="Re-ARC demonstrations per search")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--records", default=None, help="write per-task records (JSON lines) here")
    parser.add_argument("--save-priors", default=None, help="write the learned priors (JSON) here")
    parser.add_argument("--load-priors", default=None, help="read learned priors from a --save-priors file")
    args = parser.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    wanted = [p for p in args.priors.split(",") if p]
    if not set(sets) <= set(SETS) or not set(wanted) <= set(PRIORS):
        parser.error(f"--sets takes {', '.join(SETS)}; --priors takes {', '.join(PRIORS)}")

    if args.load_priors:
        with open(args.load_priors) as handle:
            stored = json.load(handle)
        made = {name: Prior.from_json(stored[name]) for name in wanted}
    else:
        made = priors(wanted, args)
    if args.save_priors:
        with open(args.save_priors, "w") as out:
            json.dump({name: prior.to_json() for name, prior in made.items()}, out, indent=1)
    runners: dict[str, Callable[[Job], dict[str, Any]]] = {
        "rearc": rearc_task,
        "eval": eval_task,
        "heldout": eval_task,
        "train": train_task,
        "train2": train2_task,
        "arcgen": arcgen_task,
    }
    print(f"budget {args.budget} applications per search, catalogue {args.catalogue}")
    parts: list[tuple[str, list[dict[str, Any]]]] = []
    for prior_name, prior in made.items():
        for set_name in sets:
            ids = _ids(set_name)[:: args.every][: args.limit]
            index = {t: i for i, t in enumerate(_ids(set_name))}
            jobs: list[Job] = [
                (index[t], t, args.demos, args.budget, prior.to_json(), args.catalogue) for t in ids
            ]
            records = _map(runners[set_name], jobs, args.jobs)
            name = f"{set_name}, {prior_name} prior" + (
                f", {args.demos} demonstrations" if set_name in GENERATED else ""
            )
            report(name, records)
            parts.append((name, records))
    if args.records:
        with open(args.records, "w") as out:
            for name, records in parts:
                for record in records:
                    out.write(json.dumps({"set": name, **record}) + "\n")
    return 0


def results_name(argv: Sequence[str]) -> str:
    """The results file a recorded run writes: ``search`` for the default catalogue, ``search-NAME`` else."""
    chosen = DEFAULT.name
    for i, arg in enumerate(argv):
        if arg == "--catalogue" and i + 1 < len(argv):
            chosen = argv[i + 1]
        elif arg.startswith("--catalogue="):
            chosen = arg.partition("=")[2]
    return "search" if chosen == DEFAULT.name else f"search-{chosen}"


if __name__ == "__main__":
    import sys

    from record import run as run_benchmark

    run_benchmark("search", main, results_name(sys.argv[1:]))
