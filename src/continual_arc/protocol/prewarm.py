"""Fill the instance cache ahead of a protocol (``continual-arc data cache --prewarm CONFIG``).

Every generative instance of the protocol's plays at the given seeds and users (the stream, which
its reset shares, and the seen test) is drawn once, with its first ``demos`` demonstrations, into
the instance cache ([`continual_arc.data.cache`][continual_arc.data.cache]); the held-out test's tasks are
served from their own pairs and need no drawing. Work is split by task over worker processes, which share the
cache on disk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from ..tracks.registry import get_config, get_track
from ..tracks.sources import DEMO_CAP
from .plays import protocol_schedules

__all__ = ["PrewarmResult", "prewarm", "protocol_instances"]


@dataclass(frozen=True)
class PrewarmResult:
    """What a prewarm drew or found: instances and pairs (test pairs and demonstrations)."""

    instances: int
    pairs: int


def protocol_instances(config: str, seeds: Sequence[int], users: int) -> list[tuple[str, str, int]]:
    """The generative instances of a protocol: ``(phase, task, seed)``, each once, in schedule order."""
    resolved = get_config(config)
    track = get_track(resolved.track)
    seen: set[tuple[str, int]] = set()
    out = []
    for seed in seeds:
        for schedule in protocol_schedules(resolved, seed, users).values():
            for slot in schedule.slots:
                key = (slot.task_id, slot.seed)
                if key in seen or track.source_for(slot.phase).kind != "generative":
                    continue
                seen.add(key)
                out.append((slot.phase, slot.task_id, slot.seed))
    return out


def _draw(config: str, items: Sequence[tuple[str, str, int]], demos: int) -> int:
    track = get_track(get_config(config).track)
    pairs = 0
    for phase, task, seed in items:
        instance = track.source_for(phase).instance(task, seed)
        for k in range(min(demos, instance.demo_cap)):
            instance.demonstration(k)
        pairs += 1 + min(demos, instance.demo_cap)
    return pairs


def prewarm(
    config: str,
    seeds: Sequence[int] = (0,),
    users: int = 1,
    *,
    demos: int = DEMO_CAP,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> PrewarmResult:
    """Draw every generative instance of ``config``'s protocol at ``seeds`` into the instance cache.

    Args:
        config: the configuration.
        seeds: the run seeds.
        users: the number of users.
        demos: demonstrations to draw per instance (at most the instance's cap).
        jobs: worker processes.
        progress: called with ``(tasks done, tasks)``.
    """
    items = protocol_instances(config, seeds, users)
    by_task: dict[str, list[tuple[str, str, int]]] = {}
    for item in items:
        by_task.setdefault(item[1], []).append(item)
    groups = list(by_task.values())
    pairs = 0
    if jobs <= 1:
        for done, group in enumerate(groups, 1):
            pairs += _draw(config, group, demos)
            if progress:
                progress(done, len(groups))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_draw, config, group, demos) for group in groups]
            for done, future in enumerate(as_completed(futures), 1):
                pairs += future.result()
                if progress:
                    progress(done, len(groups))
    return PrewarmResult(len(items), pairs)
