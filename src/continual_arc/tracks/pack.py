"""A rule pack's track: its rules streamed and held out, built the way arc1 is built from its pool.

The pack's pool is the rules that pass its screen
([`screen_rule`][continual_arc.data.pack_check.screen_rule]). The pool is split in two by a stable hash of the
pack's name and each rule's id: the first half (rounded down) in hash order is held out, the rest is streamed.
The configuration is arc1's scaled to the pack ([`pack_config`][continual_arc.tracks.pack.pack_config]):

* ``stream_tasks``: the streamed rules, at most 25; ``held_out``: the held-out rules, at most 25;
* ``supply``: 8 instances of each streamed rule, as on arc1;
* ``seen_size``: 4 instances of each streamed rule (arc1's 100 for 25 tasks).

So a 50-rule pack plays as arc1 does (25 rules over 200 stream instances, 25 held out), and the
18 rules of ``packs/demo`` play 9 rules over 72 instances, 9 held out and a seen test of 36.
The track and its configuration are named ``pack-<name>``; both of its sources serve the same
pack, each its half of the rules. A held-out rule's instances offer the demonstrations its manifest
entry's ``demo_cap`` sets (`demo_caps`), 8 when it sets
none; a streamed rule's always offer 8, as Re-ARC's streamed tasks do.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..core.config import Config
from ..core.seeding import stable_int
from ..data import pack_draws
from ..data.draws import one_demonstration
from ..data.pack import PackError, RulePack
from ..data.pack_check import screen_rule
from .grid_env import GridEnv
from .sources import GenerativeSource, TaskSource
from .track import Role, Track

__all__ = [
    "MAX_RULES_PER_SIDE",
    "SEEN_PER_RULE",
    "pack_config",
    "pack_pool",
    "pack_split",
    "pack_track",
    "track_name",
]

MAX_RULES_PER_SIDE = 25
"""The most rules streamed, and the most held out (arc1's 25 stream tasks and held-out size)."""

SEEN_PER_RULE = 4
"""Seen-test instances per streamed rule (arc1: 100 for 25 tasks)."""


def track_name(pack_name: str) -> str:
    """The name of the track and configuration of the pack called ``pack_name``: ``pack-<name>``."""
    return f"pack-{pack_name}"


def pack_pool(pack: RulePack) -> tuple[str, ...]:
    """The pack's rules that pass the screen, sorted."""
    return tuple(rule for rule in sorted(pack.rules) if screen_rule(pack, rule)["pass"])


def pack_split(pack: RulePack, pool: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The pool split into (streamed rules, held-out rules), each sorted."""
    ranked = sorted(pool, key=lambda rule: (stable_int("pack-split", pack.name, rule), rule))
    held = ranked[: len(ranked) // 2]
    return tuple(sorted(set(ranked) - set(held))), tuple(sorted(held))


def pack_config(name: str, streamed: int, held_out: int) -> Config:
    """arc1's configuration scaled to a pack with ``streamed`` and ``held_out`` rules on each side."""
    stream_tasks = min(MAX_RULES_PER_SIDE, streamed)
    return Config(
        name=name,
        track=name,
        stream_tasks=stream_tasks,
        held_out=min(MAX_RULES_PER_SIDE, held_out),
        seen_size=SEEN_PER_RULE * stream_tasks,
    )


def _source(pack: RulePack, name: str, rules: tuple[str, ...], held_out: bool) -> GenerativeSource:
    # Only the held-out side takes the manifest's caps: it stands where arc1 serves the evaluation
    # tasks' own train pairs, the stream where it serves Re-ARC's draws (always 8).
    caps = {rule: cap for rule, cap in pack.demo_caps.items() if rule in rules} if held_out else {}
    return GenerativeSource(
        name,
        rules,
        lambda rule, seed: pack_draws.instance(pack, rule, seed),
        lambda rule, seed, count, test_input: pack_draws.demonstrations(pack, rule, seed, count, test_input),
        versions=pack.describe,  # the pack's name, version and manifest hash: the instance cache's key
        demonstration=one_demonstration(partial(pack_draws.draw, pack)),
        demo_caps=caps,
    )


def _built(source: TaskSource) -> Callable[[], TaskSource]:
    """A factory of a source already built (the pack's rules are loaded once, with the pack)."""
    return lambda: source


def pack_track(pack: RulePack) -> Track:
    """The track of a loaded pack (its rules screened now).

    Raises:
        PackError: fewer than two rules pass the screen (one to stream, one to hold out).
    """
    name = track_name(pack.name)
    pool = pack_pool(pack)
    if len(pool) < 2:
        raise PackError(
            f"pack {pack.name} has {len(pool)} rule(s) that pass the screen; a track needs at least 2"
        )
    streamed, held = pack_split(pack, pool)
    sources: dict[str, TaskSource] = {
        f"{name}/stream": _source(pack, f"{name}/stream", streamed, held_out=False),
        f"{name}/held-out": _source(pack, f"{name}/held-out", held, held_out=True),
    }
    return Track(
        name=name,
        roles={Role.STREAM: f"{name}/stream", Role.HELD_OUT: f"{name}/held-out"},
        factories={source: _built(built) for source, built in sources.items()},
        configs=(pack_config(name, len(streamed), len(held)),),
        environment=GridEnv,
        summary=f"rule pack {pack.name} (version {pack.version}, manifest sha256 {pack.digest[:12]})",
    )
