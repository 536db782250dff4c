"""Instance seeds: every instance of every phase, and every auxiliary instance, in a range of its own.

A seed is ``base * 10**15 + (SHA-256 of its names) mod 10**15``, with bases 1 (stream), 2
(epilogue), 3 (held-out), 4 (seen), 5 (auxiliary instances asked for by plug-ins) and 6 (the
instances of ``continual-arc first-sight``), so two phases can never share an instance, and every
seed stays below 2**53 (exact in JavaScript).
"""

from __future__ import annotations

from ..core.config import Config
from ..core.records import Phase
from ..core.seeding import stable_int

__all__ = [
    "ADDON_SEED_BASE",
    "FIRST_SIGHT_SEED_BASE",
    "SEED_SPAN",
    "addon_seed",
    "first_sight_seed",
    "instance_seed",
]

_PHASE_BASE: dict[str, int] = {Phase.STREAM: 1, Phase.EPILOGUE: 2, Phase.HELD_OUT: 3, Phase.SEEN: 4}

SEED_SPAN = 10**15
"""The width of every phase's range of seeds."""

ADDON_SEED_BASE = 5
"""Auxiliary instances' seeds lie in ``[5 * 10**15, 6 * 10**15)``, a range no schedule phase uses."""


def instance_seed(config: Config, seed: int, phase: str, user: int | None, task: str, index: int) -> int:
    """The instance seed of a task's ``index``-th instance for ``user`` in ``phase``.

    Each phase's seeds lie in a range of their own (``phase base * 10**15 + ...``), so a stream, its
    epilogue and its tests never share an instance. ``user`` is ``None`` where every user meets
    the same instance (the held-out test).
    """
    who = "all" if user is None else user
    return (
        _PHASE_BASE[phase] * SEED_SPAN
        + stable_int("instance", config.name, seed, phase, who, task, index) % SEED_SPAN
    )


def addon_seed(config: str, seed: int, task_id: str, index: int) -> int:
    """The seed of the ``index``-th auxiliary instance of ``task_id`` in a run of ``config`` at ``seed``."""
    return ADDON_SEED_BASE * SEED_SPAN + stable_int("addon", config, seed, task_id, index) % SEED_SPAN


FIRST_SIGHT_SEED_BASE = 6
"""``continual-arc first-sight``'s instances lie in ``[6 * 10**15, 7 * 10**15)``, a range of their own."""


def first_sight_seed(track: str, seed: int, task_id: str) -> int:
    """The seed of the instance of ``task_id`` that ``first-sight`` serves at run seed ``seed``."""
    return FIRST_SIGHT_SEED_BASE * SEED_SPAN + stable_int("first-sight", track, seed, task_id) % SEED_SPAN
