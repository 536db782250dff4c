"""Seeded, verified draws from a rule pack's generators, as Re-ARC's are drawn.

An instance is a pure function of ``(pack name, rule, instance seed)``: its test pair is drawn by
the rule's generator from a [`stable_rng`][continual_arc.core.seeding.stable_rng] named by the pack, the
rule, the seed, the purpose, the index and the sub-draw, at difficulty
[`DIFFICULTY`][continual_arc.data.pack_draws.DIFFICULTY]. A sub-draw is rejected and the next one taken
([`continual_arc.data.draws`][continual_arc.data.draws]) when the generator raises, a grid is not a valid ARC
grid, the output equals the input, or the rule's verifier raises or disagrees with the generator. A call past
[`CALL_TIME_LIMIT`][continual_arc.data.pack_draws.CALL_TIME_LIMIT] is an error, never a redraw.
"""

from __future__ import annotations

from typing import Any

from ..core.grids import Grid, InvalidGridError, Pair, validate_grid
from ..core.seeding import stable_rng
from . import draws
from .draws import Draw, GeneratorError, checked_pair, first_accepted
from .pack import RulePack
from .timelimit import CallTimeout, timed_call

__all__ = ["CALL_TIME_LIMIT", "DIFFICULTY", "demonstrations", "draw", "instance"]

DIFFICULTY = (0.0, 1.0)
"""The difficulty bounds of every draw (Re-ARC's default)."""

CALL_TIME_LIMIT = 30.0
"""Seconds one generator or verifier call may take."""


def _verified(pack: RulePack, rule: str, raw: Any) -> Pair | str:
    """The validated pair if the rule's verifier agrees with it, else why it is rejected."""
    pair = checked_pair(raw)
    if isinstance(pair, str):
        return pair
    try:
        # A copy: a verifier that edits its argument must not change the pair it is checking.
        answer = timed_call(pack.rules[rule].verify, CALL_TIME_LIMIT, [list(row) for row in pair[0]])
    except CallTimeout:
        raise GeneratorError(f"the verifier of rule {rule} ran past {CALL_TIME_LIMIT:g} s") from None
    except Exception as err:  # a verifier's own bug rejects the draw, whatever it is
        return f"verifier raised {type(err).__name__}"
    try:
        return pair if validate_grid(answer) == pair[1] else "verifier disagrees"
    except InvalidGridError:
        return "verifier disagrees"


def draw(
    pack: RulePack, rule: str, seed: int, purpose: str, index: int, avoid: frozenset[Grid] = frozenset()
) -> Draw:
    """Draw one verified pair of a rule.

    Args:
        pack: the loaded pack.
        rule: a rule id of the pack.
        seed: the instance seed.
        purpose: what the pair is for (``"test"``, ``"demo"``, ``"screen"``, ``"check"``).
        index: the pair's number among the instance's pairs of that purpose.
        avoid: input grids the pair's input must differ from.

    Raises:
        KeyError: the pack has no such rule.
        GeneratorError: too many sub-draws in a row were rejected, or a call ran past its limit.
    """
    generate = pack.rules[rule].generate

    def sub_draw(sub: int) -> Pair | str:
        rng = stable_rng("pack", pack.name, rule, seed, purpose, index, sub)
        try:
            raw = timed_call(generate, CALL_TIME_LIMIT, rng, *DIFFICULTY)
        except CallTimeout:
            raise GeneratorError(
                f"the generator of rule {rule} ran past {CALL_TIME_LIMIT:g} s (seed {seed})"
            ) from None
        except Exception as err:  # a generator's own bug rejects the draw, whatever it is
            return f"generator raised {type(err).__name__}"
        return _verified(pack, rule, raw)

    return first_accepted(
        sub_draw, avoid, f"rule {rule} of pack {pack.name} (seed {seed}, {purpose} {index})"
    )


def instance(pack: RulePack, rule: str, seed: int) -> Pair:
    """The test pair of instance ``seed`` of a rule."""
    return draw(pack, rule, seed, "test", 0).pair


def demonstrations(
    pack: RulePack, rule: str, seed: int, count: int, test_input: Grid | None = None
) -> tuple[Pair, ...]:
    """The first ``count`` demonstrations of an instance, each with an input of its own.

    Demonstration ``k`` is the same whatever ``count`` is asked for.
    """
    if test_input is None:
        test_input = instance(pack, rule, seed)[0]

    def by_rule(task: str, seed_: int, purpose: str, index: int, avoid: frozenset[Grid]) -> Draw:
        return draw(pack, task, seed_, purpose, index, avoid)

    return draws.demonstrations(by_rule, rule, seed, count, test_input)
