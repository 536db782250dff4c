"""Whether a pack's rule is a public task in disguise: the public verifiers run over its drawn pairs.

[`pack_check`][continual_arc.data.pack_check] asks whether a rule's *own* verifier reproduces a public
task. A rule can pass that and still be one: its verifier may accept only grids of its own look
(refusing the public task's inputs), while its generator draws the public task's pairs. The lookup
learner (``tests/learners/lookup_learner.py``) does not read the rule's verifier; it runs the public
ones on the demonstrations, and the public task's verifier answers the disguised rule's instances.
So the check also runs it the other way: every public Re-ARC verifier (one per ARC-AGI-1 training
task, 400, as [`rearc`][continual_arc.data.rearc] loads them) over the rule's first
[`DISGUISE_PAIRS`][continual_arc.data.pack_disguise.DISGUISE_PAIRS] drawn pairs, and a rule is refused when
one of them maps at least [`DISGUISE_MATCHES`][continual_arc.data.pack_disguise.DISGUISE_MATCHES] of those
inputs to their outputs.

Why those numbers: a public task copied under a new look has its verifier reproduce 20 of 20 of
its pairs; an honest rule meets a public verifier by coincidence, on few pairs. On ``packs/demo``
the most any verifier reproduces is 6 of 20 (layer-order against f8ff0b80's, which lists objects'
colours by size where the rule lists rectangles' by layer), then 2, and 1 or none on the other 16
rules (``python benchmarks/pack_disguise.py`` runs every verifier on every pair). Refusing at a
clear majority, 11, stands five pairs above that coincidence and at the fewest by which a public
verifier answers most of a rule's pairs; a disguise below it gives a lookup learner fewer than half
of a public task's instances, each only when every demonstration it bought agrees too. A verifier
stops being run on a rule once it can no longer reach 11, so most of them run on the 10 smallest
pairs (a check of ``packs/demo`` takes about 5 CPU-minutes, the exhaustive benchmark 16).

ARC-AGI-1's evaluation tasks and ARC-AGI-2's have no public verifier, so nothing is run for them;
a lookup learner has nothing to run for them either. What the checker cannot see: a generator that
recognises the check's random streams (they are a pure function of the pack's name, the rule and
the seed) could draw honestly here and disguised in play; a reviewer reading the rule file sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.grids import InvalidGridError, Pair, validate_grid
from .pinned import load_rearc
from .timelimit import CallTimeout, timed_call

__all__ = [
    "DISGUISE_MATCHES",
    "DISGUISE_PAIRS",
    "VERIFIER_CALL_LIMIT",
    "Lookalike",
    "lookalikes",
    "match_counts",
    "public_verifiers",
    "reproduces",
]

DISGUISE_PAIRS = 20
"""A rule's drawn pairs the public verifiers are run over: the first 20 of the check's draws."""

DISGUISE_MATCHES = 11
"""Pairs of `DISGUISE_PAIRS` a public verifier must reproduce for the rule to be refused."""

VERIFIER_CALL_LIMIT = 0.5
"""Seconds (wall time) a public verifier may spend on one drawn input; past it, the pair is a miss.

Re-ARC's verifiers take at most about a quarter of a CPU-second on their own task's grids, and a
disguised rule's inputs are that task's, so its twin answers within the limit; some verifiers
spend tens of seconds on a foreign grid, which is no match anyway."""

Verifier = Callable[[Any], Any]
"""A public verifier: an input grid (a tuple of tuples) to its output, or an error on a foreign grid."""


@dataclass(frozen=True)
class Lookalike:
    """A public verifier that reproduces a rule's drawn pairs.

    Attributes:
        task: the public task, ``"arc1/<id>"`` (a Re-ARC verifier is named by its ARC-AGI-1 id).
        matched: how many of the rule's pairs it reproduced.
        pairs: how many pairs it was run over.
    """

    task: str
    matched: int
    pairs: int


def public_verifiers() -> dict[str, Verifier]:
    """Every public verifier, as ``{"arc1/<id>": verifier}``: Re-ARC's 400."""
    return {f"arc1/{task}": verify for task, verify in sorted(load_rearc().verifiers.items())}


def reproduces(verify: Verifier, pair: Pair) -> bool | None:
    """Whether the verifier maps the pair's input to its output; ``None`` if it ran past the limit.

    The check counts ``None`` as a miss.
    """
    try:
        answer = timed_call(verify, VERIFIER_CALL_LIMIT, pair[0])
    except CallTimeout:
        return None
    except Exception:  # a verifier run on a foreign grid may fail in any way: it simply does not match
        return False
    try:
        return validate_grid(answer) == pair[1]
    except (InvalidGridError, TypeError, ValueError):
        return False


def match_counts(
    pairs: Sequence[Pair], verifiers: Mapping[str, Verifier], stop_below: int = 0
) -> dict[str, int]:
    """How many of the pairs each verifier reproduces (those reproducing none left out).

    Args:
        pairs: the rule's drawn pairs (grids as tuples of tuples, which no verifier can edit).
        verifiers: the public verifiers, by public task.
        stop_below: a verifier is no longer run once it can no longer reach this many matches, and
            its count so far is left out (0: every verifier runs on every pair, to measure); a
            count below it may still be given when the verifier ran to the last pair.
    """
    # Smallest inputs first: a verifier's time grows with the grid, and most verifiers miss every
    # pair, so their misses are met soonest and cheapest; the order changes no count it keeps.
    pairs = sorted(pairs, key=lambda pair: (len(pair[0]) * len(pair[0][0]), pair))
    counts: dict[str, int] = {}
    for task, verify in verifiers.items():
        matched = 0
        for done, pair in enumerate(pairs):
            if stop_below and matched + len(pairs) - done < stop_below:
                matched = 0  # cannot reach the threshold: the count is not needed
                break
            matched += reproduces(verify, pair) is True
        if matched:
            counts[task] = matched
    return counts


def lookalikes(pairs: Sequence[Pair], verifiers: Mapping[str, Verifier] | None = None) -> list[Lookalike]:
    """The public verifiers that reproduce at least `DISGUISE_MATCHES` of a rule's pairs.

    Args:
        pairs: the rule's drawn pairs; the first
            [`DISGUISE_PAIRS`][continual_arc.data.pack_disguise.DISGUISE_PAIRS] are used.
        verifiers: the public verifiers (default:
            [`public_verifiers`][continual_arc.data.pack_disguise.public_verifiers]).
    """
    used = pairs[:DISGUISE_PAIRS]
    counts = match_counts(
        used, public_verifiers() if verifiers is None else verifiers, stop_below=DISGUISE_MATCHES
    )
    found = [Lookalike(task, n, len(used)) for task, n in counts.items() if n >= DISGUISE_MATCHES]
    return sorted(found, key=lambda hit: (-hit.matched, hit.task))
