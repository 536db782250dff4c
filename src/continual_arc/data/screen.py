"""The screen: which Re-ARC generators are reliable enough to serve a track.

Every generator is run over a fixed set of seeds (purpose ``"screen"``, never used by any
schedule), each draw with the redraw rules of :mod:`continual_arc.data.rearc`. A task passes when no
draw is exhausted, at most :data:`MAX_REJECTION_RATE` of its sub-draws were rejected, and at least
:data:`MIN_DISTINCT_SHARE` of its accepted inputs are distinct. The result is a committed JSON file
(``continual_arc/data/screens/<track>.json``), rebuilt byte for byte by ``continual-arc data screen``;
every track draws its tasks from the tasks that pass.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.files import atomic_write_text, dumps_json
from .pinned import check_sources
from .rearc import GeneratorError, draw
from .rearc import task_ids as all_ids

__all__ = [
    "DRAWS",
    "MAX_REJECTION_RATE",
    "MIN_DISTINCT_SHARE",
    "build_screen",
    "load_screen",
    "screen_path",
    "screen_task",
    "screened_pool",
    "write_screen",
]

DRAWS = 30
"""Draws per task, at seeds 0 to DRAWS - 1."""

MAX_REJECTION_RATE = 2 / 3
"""The largest share of rejected sub-draws a task may have.

A rejection costs a redraw, not a wrong pair: the verifier guarantees every accepted pair. What
makes a task unusable is the chance that :data:`~continual_arc.data.rearc.MAX_REDRAWS` draws in a row
are rejected, which at this rate is below (2/3) ** 40, about 1e-7 per draw."""

MIN_DISTINCT_SHARE = 0.9
"""The smallest share of distinct inputs among a task's accepted draws."""

FORMAT = 1


def screen_task(task_id: str, draws: int = DRAWS) -> dict[str, Any]:
    """Screen one Re-ARC task over seeds ``0 .. draws - 1``; the entry the screen file keeps for it."""
    reasons: Counter[str] = Counter()
    inputs = set()
    sub_draws = exhausted = 0
    for seed in range(draws):
        try:
            result = draw(task_id, seed, "screen", 0)
        except GeneratorError as err:
            exhausted += 1
            reasons[f"exhausted: {err}"[:80]] += 1
            continue
        sub_draws += len(result.rejections) + 1
        reasons.update(result.rejections)
        inputs.add(result.pair[0])
    accepted = draws - exhausted
    rejected = sum(n for reason, n in reasons.items() if not reason.startswith("exhausted"))
    rate = rejected / sub_draws if sub_draws else 1.0
    distinct = len(inputs) / accepted if accepted else 0.0
    return {
        "draws": draws,
        "sub_draws": sub_draws,
        "exhausted": exhausted,
        "rejection_rate": round(rate, 4),
        "distinct_input_share": round(distinct, 4),
        "rejections": dict(sorted(reasons.items())),
        "pass": exhausted == 0 and rate <= MAX_REJECTION_RATE and distinct >= MIN_DISTINCT_SHARE,
    }


def build_screen(
    task_ids: Iterable[str] | None = None,
    draws: int = DRAWS,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Screen the given Re-ARC tasks (all 400 by default) and return the screen document."""
    ids = sorted(task_ids) if task_ids is not None else list(all_ids())
    sources = check_sources()
    entries: dict[str, Any] = {}
    for done, (task_id, entry) in enumerate(
        zip(ids, _map(partial(screen_task, draws=draws), ids, jobs), strict=True), 1
    ):
        entries[task_id] = entry
        if progress:
            progress(done, len(ids))
    return {
        "format": FORMAT,
        "track": "arc1",
        "source": {"reasoning-gym": sources["reasoning-gym"], "rearc_sha256": sources["rearc_sha256"]},
        "criteria": {
            "draws": draws,
            "seeds": f"0..{draws - 1} (purpose 'screen')",
            "max_rejection_rate": round(MAX_REJECTION_RATE, 4),
            "min_distinct_input_share": MIN_DISTINCT_SHARE,
            "max_exhausted": 0,
        },
        "passed": sum(entry["pass"] for entry in entries.values()),
        "failed": sum(not entry["pass"] for entry in entries.values()),
        "pool": sorted(task_id for task_id, entry in entries.items() if entry["pass"]),
        "tasks": entries,
    }


def _map(fn: Callable[[str], Any], items: list[str], jobs: int) -> Iterator[Any]:
    if jobs <= 1:
        yield from map(fn, items)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(fn, items)


def dumps_screen(document: dict[str, Any]) -> str:
    """The screen document as the canonical text that is committed (sorted keys, final newline)."""
    return dumps_json(document)


def write_screen(document: dict[str, Any], path: Path) -> None:
    """Write a screen document atomically."""
    atomic_write_text(path, dumps_screen(document))


def screen_path(track: str = "arc1") -> Path:
    """The committed screen file of a track."""
    return Path(str(resources.files("continual_arc.data") / "screens" / f"{track}.json"))


@cache
def load_screen(track: str = "arc1") -> dict[str, Any]:
    """The committed screen document of a track."""
    document: dict[str, Any] = json.loads(screen_path(track).read_text())
    return document


def screened_pool(track: str = "arc1") -> tuple[str, ...]:
    """The sorted task ids that pass a track's screen."""
    return tuple(load_screen(track)["pool"])
