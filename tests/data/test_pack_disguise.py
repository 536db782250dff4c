"""The public verifiers over a rule's drawn pairs: a clear majority refuses, a time-out is a miss."""

from __future__ import annotations

import time
from typing import Any

from continual_arc.data.pack_disguise import (
    DISGUISE_MATCHES,
    DISGUISE_PAIRS,
    VERIFIER_CALL_LIMIT,
    lookalikes,
    public_verifiers,
)
from continual_arc.data.pinned import arc1_tasks

Grid = tuple[tuple[int, ...], ...]


def _pairs(n: int) -> list[tuple[Grid, Grid]]:
    # input k is a 1 x 1 grid of colour k % 10 (its row number in a second row, so all differ)
    return [(((k % 10,), (k // 10,)), ((9,), (9,))) for k in range(n)]


def _answers_first(count: int) -> Any:
    """A verifier that answers right the pairs whose first colour is below ``count`` (row 2 is 0)."""

    def verify(grid: Grid) -> Any:
        return ((9,), (9,)) if grid[0][0] + 10 * grid[1][0] < count else grid

    return verify


def test_a_clear_majority_of_the_pairs_refuses_and_fewer_do_not() -> None:
    pairs = _pairs(DISGUISE_PAIRS)
    assert DISGUISE_PAIRS == 20 and DISGUISE_MATCHES == 11
    verifiers = {f"fake/{n}": _answers_first(n) for n in (0, 1, 10, 11, 20)}
    found = {hit.task: (hit.matched, hit.pairs) for hit in lookalikes(pairs, verifiers)}
    assert found == {"fake/11": (11, 20), "fake/20": (20, 20)}
    # only the first DISGUISE_PAIRS pairs are read: ten more that a verifier answers change nothing
    assert not lookalikes(pairs + _pairs(40)[20:], {"fake/10": _answers_first(10)})


def test_a_verifier_past_its_time_limit_is_a_miss() -> None:
    pairs = _pairs(DISGUISE_PAIRS)

    def slow(grid: Grid) -> Any:
        if grid[0][0] + 10 * grid[1][0] < 10:
            time.sleep(VERIFIER_CALL_LIMIT + 1)
        return ((9,), (9,))

    start = time.monotonic()
    assert not lookalikes(pairs, {"fake/slow": slow})  # 10 answered in time, 10 cut off: below 11
    # each slow call is cut at the limit, and no more than ten are made before it cannot reach 11
    assert time.monotonic() - start < 10 * (VERIFIER_CALL_LIMIT + 0.5)


def test_the_public_verifiers_are_re_arcs_400() -> None:
    verifiers = public_verifiers()
    assert len(verifiers) == 400
    assert set(verifiers) == {f"arc1/{t}" for t in arc1_tasks()["train"]}
