"""The protocol block: a schedule's track, whether it is canonical, and each deviation in words."""

from __future__ import annotations

import dataclasses

from .. import __version__
from ..core.config import CANONICAL_SEEDS, CANONICAL_USERS, Config
from ..core.records import ProtocolBlock, ScheduleMeta
from ..tracks.registry import CONFIGS

__all__ = ["protocol_of"]


def protocol_of(meta: ScheduleMeta) -> ProtocolBlock:
    """The protocol block of a schedule: its track, whether it is canonical, and each deviation.

    The reset's stream (``--reset-each``), ``--order fresh``, a test's width and the epilogue
    are parts of the canonical protocol; anything else that differs from the track's
    configuration at a canonical seed and number of users is an ablation, named in words.
    """
    deviations: list[str] = []
    track, name = meta["track"], meta["config"]
    canonical = CONFIGS.get(track)
    config = Config.from_dict(meta["configuration"])
    if canonical is None:
        deviations.append(f"track {track} has no canonical configuration")
    elif name != track:
        deviations.append(f"configuration {name} (the track's is {track})")
    elif dataclasses.replace(config, env=canonical.env, users=1) != canonical:
        deviations.append(f"configuration {name} differs from this release's {track}")
    deviations += config.env.deviations()
    if meta["seed"] not in CANONICAL_SEEDS:
        deviations.append(f"seed {meta['seed']} (canonical seeds: 0, 1, 2)")
    if meta["order"] in ("sequential", "random", "custom"):
        deviations.append(f"order {meta['order']} (an ablation)")
    if meta["users"] not in CANONICAL_USERS:
        deviations.append(f"{meta['users']} users (canonical: 1, 2, 4, 8, 16)")
    if meta.get("rounds_cut") is not None:
        deviations.append(f"stream cut at round {meta['rounds_cut']}")
    return {"track": track, "canonical": not deviations, "deviations": deviations, "release": __version__}
