"""The screen: which generators are reliable enough to serve a track's stream.

Every generator of a track (Re-ARC's for arc1, ARC-GEN's for arc2) is run over a fixed set of
seeds (purpose ``"screen"``, never used by any schedule), each draw with its source's redraw rule
([`continual_arc.data.rearc`][continual_arc.data.rearc],
[`continual_arc.data.arcgen`][continual_arc.data.arcgen]). A task passes when no draw fails, at most
[`MAX_REJECTION_RATE`][continual_arc.data.screen.MAX_REJECTION_RATE] of its sub-draws were rejected, and at
least [`MIN_DISTINCT_SHARE`][continual_arc.data.screen.MIN_DISTINCT_SHARE] of its accepted inputs are
distinct. On arc2, whose generators may loop, a task must also spend its random budget
([`RANDOM_BUDGET`][continual_arc.data.arcgen.RANDOM_BUDGET]) on at most
[`ARC2_MAX_BUDGET_SHARE`][continual_arc.data.screen.ARC2_MAX_BUDGET_SHARE] of its sub-draws, a draw fails when
more than [`ARC2_MAX_SPENT_PER_DRAW`][continual_arc.data.screen.ARC2_MAX_SPENT_PER_DRAW] of its sub-draws
spend it or past [`ARC2_DRAW_TIME_LIMIT`][continual_arc.data.screen.ARC2_DRAW_TIME_LIMIT], and a task's screen
stops at its first failed draw. The result is a committed JSON file
(``continual_arc/data/screens/<track>.json``), rebuilt byte for byte by ``continual-arc data screen``; every
track draws its tasks from the tasks that pass. Reading the committed file is
[`screen_file`][continual_arc.data.screen_file] (re-exported here), which a track needs without the screening
machinery.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import NotRequired, TypedDict, TypeVar

from ..core.records import JSONObject
from . import arcgen, rearc
from .arc2_sources import check_arc2, generator_ids, new_task_ids
from .draws import Draw, GeneratorError
from .pinned import check_sources
from .screen_file import (
    SCREENED_TRACKS,
    ScreenDocument,
    ScreenEntry,
    dumps_screen,
    load_screen,
    screen_path,
    screened_pool,
    write_screen,
)

T = TypeVar("T")

__all__ = [
    "ARC2_DRAW_TIME_LIMIT",
    "ARC2_MAX_BUDGET_SHARE",
    "ARC2_MAX_SPENT_PER_DRAW",
    "DRAWS",
    "MAX_REJECTION_RATE",
    "MIN_DISTINCT_SHARE",
    "SCREENED_TRACKS",
    "build_screen",
    "dumps_screen",
    "load_screen",
    "screen_draws",
    "screen_path",
    "screen_task",
    "screened_pool",
    "write_screen",
]

DRAWS = 30
"""Draws per task, at seeds 0 to DRAWS - 1."""

MAX_REJECTION_RATE = 2 / 3
"""The largest share of rejected sub-draws a task may have.

A rejection costs a redraw, not a wrong pair. What makes a task unusable is the chance that
[`MAX_REDRAWS`][continual_arc.data.draws.MAX_REDRAWS] draws in a row are rejected, which at this rate is
below (2/3) ** 40, about 1e-7 per draw."""

MIN_DISTINCT_SHARE = 0.9
"""The smallest share of distinct inputs among a task's accepted draws."""

ARC2_MAX_BUDGET_SHARE = 0.25
"""The largest share of an arc2 task's sub-draws that may be rejected for spending the random budget.

Such a sub-draw is the dearest rejection (tens of thousands of random numbers of work), so this
bounds what a task's draws cost by a count that depends on the seeds alone, not on the machine."""

ARC2_MAX_SPENT_PER_DRAW = 3
"""The most sub-draws of one arc2 screen draw that may spend the random budget; one more fails the task.

A limit on the work of one draw, counted in random numbers, so it is the same on every machine."""

ARC2_DRAW_TIME_LIMIT = 120.0
"""Seconds one arc2 screen draw (all its sub-draws) may take; a slower draw fails the task.

Time depends on the machine and on what else runs on it, so this limit and the one per call
([`GENERATOR_TIME_LIMIT`][continual_arc.data.arcgen.GENERATOR_TIME_LIMIT]) are far above what any call within
its random budget takes here (under a second of CPU time): only a generator that hangs without drawing
random numbers meets them, and it meets them on every machine."""

FORMAT = 1


def _arc1_draw(task_id: str, seed: int) -> Draw:
    return rearc.draw(task_id, seed, "screen", 0)


def _arc2_draw(task_id: str, seed: int) -> Draw:
    start = time.monotonic()
    result = arcgen.draw(task_id, seed, "screen", 0, max_spent=ARC2_MAX_SPENT_PER_DRAW)
    if time.monotonic() - start > ARC2_DRAW_TIME_LIMIT:
        reason = f"the draw took longer than {ARC2_DRAW_TIME_LIMIT:g} s"
        raise GeneratorError(f"{task_id} (seed {seed}): {reason}", reason)
    return result


_DRAW: dict[str, Callable[[str, int], Draw]] = {"arc1": _arc1_draw, "arc2": _arc2_draw}


def screen_draws(
    draw: Callable[[int], Draw], draws: int = DRAWS, stop_at_failure: bool = False
) -> ScreenEntry:
    """Screen one generator by its draws at seeds ``0 .. draws - 1``: the entry a screen keeps for it.

    Args:
        draw: seed -> the accepted draw (raising [`GeneratorError`][continual_arc.data.draws.GeneratorError]
            when it fails).
        draws: how many seeds.
        stop_at_failure: stop at the first failed draw (the entry then says where).
    """
    reasons: Counter[str] = Counter()
    inputs = set()
    sub_draws = exhausted = screened = 0
    for seed in range(draws):
        screened += 1
        try:
            result = draw(seed)
        except GeneratorError as err:
            exhausted += 1
            reasons[f"failed: {err.reason}"[:96]] += 1
            if stop_at_failure:
                break
            continue
        sub_draws += len(result.rejections) + 1
        reasons.update(result.rejections)
        inputs.add(result.pair[0])
    accepted = screened - exhausted
    rejected = sum(n for reason, n in reasons.items() if not reason.startswith("failed: "))
    rate = rejected / sub_draws if sub_draws else 1.0
    distinct = len(inputs) / accepted if accepted else 0.0
    entry: ScreenEntry = {
        "draws": screened,
        "sub_draws": sub_draws,
        "exhausted": exhausted,
        "rejection_rate": round(rate, 4),
        "distinct_input_share": round(distinct, 4),
        "rejections": dict(sorted(reasons.items())),
        "pass": exhausted == 0 and rate <= MAX_REJECTION_RATE and distinct >= MIN_DISTINCT_SHARE,
    }
    if screened < draws:
        entry["stopped"] = f"at its first failed draw, seed {screened - 1}"
    return entry


def screen_task(task_id: str, draws: int = DRAWS, track: str = "arc1") -> ScreenEntry:
    """Screen one task of a track over seeds ``0 .. draws - 1``; the entry the screen file keeps for it."""
    entry = screen_draws(partial(_DRAW[track], task_id), draws, stop_at_failure=track == "arc2")
    if track == "arc2":
        sub_draws = entry["sub_draws"]
        spent = entry["rejections"].get("random budget spent", 0) / sub_draws if sub_draws else 1.0
        entry["budget_spent_share"] = round(spent, 4)
        entry["pass"] = entry["pass"] and spent <= ARC2_MAX_BUDGET_SHARE
    return entry


def _criteria(track: str, draws: int) -> JSONObject:
    criteria: JSONObject = {
        "draws": draws,
        "seeds": f"0..{draws - 1} (purpose 'screen')",
        "max_rejection_rate": round(MAX_REJECTION_RATE, 4),
        "min_distinct_input_share": MIN_DISTINCT_SHARE,
        "max_exhausted": 0,
    }
    if track == "arc2":
        criteria["random_budget_per_call"] = arcgen.RANDOM_BUDGET
        criteria["max_budget_spent_share"] = ARC2_MAX_BUDGET_SHARE
        criteria["max_budget_spent_per_draw"] = ARC2_MAX_SPENT_PER_DRAW
        criteria["time_limit_per_call_seconds"] = arcgen.GENERATOR_TIME_LIMIT
        criteria["time_limit_per_draw_seconds"] = ARC2_DRAW_TIME_LIMIT
        criteria["stop"] = "a task's screen stops at its first failed draw"
    return criteria


class _Candidates(TypedDict):
    source: dict[str, str]
    candidates: NotRequired[int]
    no_generator: NotRequired[list[str]]


def _candidates(track: str) -> tuple[list[str], _Candidates]:
    """The track's tasks to screen, and what the document says about its source."""
    if track == "arc1":
        sources = check_sources()
        source = {"reasoning-gym": sources["reasoning-gym"], "rearc_sha256": sources["rearc_sha256"]}
        return list(rearc.task_ids()), {"source": source}
    versions = check_arc2()
    new = new_task_ids("train")
    have = set(generator_ids())
    extra: _Candidates = {
        "source": {key: versions[key] for key in ("arc-gen", "arcgen_sha256", "arcagi2_json_sha256")},
        "candidates": len(new),
        "no_generator": [task for task in new if task not in have],
    }
    return [task for task in new if task in have], extra


def build_screen(
    task_ids: Iterable[str] | None = None,
    draws: int = DRAWS,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    track: str = "arc1",
) -> ScreenDocument:
    """Screen a track's tasks (all its generators by default) and return the screen document."""
    every, extra = _candidates(track)
    ids = sorted(task_ids) if task_ids is not None else every
    entries: dict[str, ScreenEntry] = {}
    screen_one = partial(screen_task, draws=draws, track=track)
    for done, (task_id, entry) in enumerate(zip(ids, _map(screen_one, ids, jobs), strict=True), 1):
        entries[task_id] = entry
        if progress:
            progress(done, len(ids))
    return {
        "format": FORMAT,
        "track": track,
        **extra,
        "criteria": _criteria(track, draws),
        "passed": sum(entry["pass"] for entry in entries.values()),
        "failed": sum(not entry["pass"] for entry in entries.values()),
        "pool": sorted(task_id for task_id, entry in entries.items() if entry["pass"]),
        "tasks": entries,
    }


def _map(fn: Callable[[str], T], items: list[str], jobs: int) -> Iterator[T]:
    if jobs <= 1:
        yield from map(fn, items)
        return
    # Reached through the package, which loads its process pool (multiprocessing) on first use
    # only: a command that reads the screen never pays for it.
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(fn, items)
