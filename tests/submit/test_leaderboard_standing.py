"""The leaderboard's places, pure over [Checked] values: standing, pooled seeds, beside, not checked here.

Every expected number is computed here from the values given, not by the code under test.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.measure.bootstrap import Estimate
from continual_arc.measure.compare import LearnedResult, TestComparison
from continual_arc.measure.pool import BudgetEstimate
from continual_arc.measure.reset_flags import BelowFloor, ResetFlags
from continual_arc.submit.check import CheckNumbers
from continual_arc.submit.leaderboard import Checked, leaderboard
from continual_arc.submit.leaderboard.formats import leaderboard_csv, leaderboard_markdown
from continual_arc.submit.leaderboard.here import NotHere
from continual_arc.submit.leaderboard.spend import Spend, spend_of_runs
from continual_arc.submit.standing import Standing, StandingKind

REPORTED = Standing(StandingKind.REPORTED, "unsigned")


def _estimate(value: float) -> Estimate:
    return Estimate(value, value - 0.1, value + 0.1)


def _side(u: float, p: float) -> dict[str, float | None]:
    return {"budget_used": u, "share_solved": p}


def _test(saved: float) -> TestComparison:
    return TestComparison(
        test=None,
        share_saved=_estimate(saved),
        saving=_estimate(10 * saved),
        learner=_side(40.0, 60.0),
        reset=_side(50.0, 50.0),
        bare=[],
        reset_below_bare=False,
        instances=8,
        tasks=4,
        plays={},
    )


def _numbers(saved: float) -> CheckNumbers:
    # no flag fires, and neither test's floor was played beside the result
    unplayed = [
        BelowFloor(t, None, None, None, None, None, Estimate(None), False) for t in ("held-out", "seen")
    ]
    learned = LearnedResult(_estimate(saved), None, {}, _side(60.0, 40.0), None, 0, 0, 0)
    return {
        "held-out": _test(saved / 2),
        "seen": _test(saved),
        "flags": ResetFlags([], None, unplayed),
        "protocol": {"track": "arc1", "canonical": True, "deviations": []},
        "learned": learned,
    }


def _checked(
    name: str,
    used: float,
    standing: Standing = REPORTED,
    *,
    seed: int = 0,
    learner: str = "A",
    instances: int = 200,
    records_only: bool = False,
    code: str | None = None,
    spend: Spend | None = None,
    title: str | None = None,
) -> Checked:
    return Checked(
        path=f"results/{name}",
        ok=True,
        problems=(),
        numbers=_numbers(used / 100),
        submission={"name": f"{title or name}, seed {seed}", "learner": learner, "student": "none"},
        standing=standing,
        setting={"track": "arc1", "config": "arc1", "users": 1, "seed": seed},
        stream=BudgetEstimate(used, 2.0, 100 - used, instances, 25),
        records_only=records_only,
        spend=spend,
        learner_spec=learner,
        learner_code=code,
    )


def _signed(kind: StandingKind, code: str | None = None, *, records_only: bool = False) -> Standing:
    return Standing(
        kind,
        "signed by the maintainers' key",
        signer="maintainers",
        records_only=records_only,
        learner_code=code,
    )


standings = st.sampled_from(
    [
        REPORTED,
        _signed(StandingKind.VERIFIED),
        _signed(StandingKind.REPRODUCED),
        Standing(StandingKind.VERIFIED, "a claim with no signature"),  # never trusted: no signer
        _signed(StandingKind.VERIFIED, records_only=True),
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.floats(0, 100), standings, st.booleans(), st.integers(0, 2), st.sampled_from("ABC")),
        min_size=1,
        max_size=8,
    )
)
def test_a_self_run_result_never_ranks_in_a_table_of_verified_ones(
    rows: list[tuple[float, Standing, bool, int, str]],
) -> None:
    checked = [
        _checked(f"r{i}", used, standing, seed=seed, learner=learner, records_only=records_only)
        for i, (used, standing, records_only, seed, learner) in enumerate(rows)
    ]
    board = leaderboard(checked)
    by_path = {c.path: c for c in checked}
    main = [seed for t in board.tables for r in t.rows for seed in (r.by_seed or (r,))]
    reported = [seed for t in board.reported for r in t.rows for seed in (r.by_seed or (r,))]
    assert sorted(r.path for r in (*main, *reported)) == sorted(by_path)  # every result is in one table
    for row in main:
        standing = by_path[row.path].standing
        assert standing.kind is not StandingKind.REPORTED and standing.signer is not None
        assert not by_path[row.path].records_only or standing.records_only
        assert row.status == standing.kind
    for row in reported:
        assert row.status == "reported"
    assert all(t.reported for t in board.reported) and not any(t.reported for t in board.tables)


def test_a_records_only_row_claiming_verified_without_a_signature_is_reported() -> None:
    unsigned = Standing(StandingKind.VERIFIED, "the file says so", records_only=True)
    signed_full = _signed(StandingKind.VERIFIED)  # its signature covers trajectories that are gone
    board = leaderboard(
        [
            _checked("claim", 10.0, unsigned, records_only=True),
            _checked("stripped", 20.0, signed_full, records_only=True, learner="B"),
            _checked(
                "stored",
                30.0,
                _signed(StandingKind.VERIFIED, records_only=True),
                records_only=True,
                learner="C",
            ),
        ]
    )
    ((stored,),) = [t.rows for t in board.tables]
    assert stored.path == "results/stored" and stored.status == "verified" and stored.records_only
    reasons = {r.path: (r.status, r.standing_reason) for t in board.reported for r in t.rows}
    assert reasons["results/claim"] == ("reported", "it claims to be verified, but no trusted key signed it")
    assert (
        reasons["results/stripped"][0] == "reported"
        and "trajectories are absent" in reasons["results/stripped"][1]
    )


def test_the_seeds_of_one_learner_pool_into_one_row_with_each_seed_kept() -> None:
    spends = [
        Spend(10, 1.0, 100.0, 5.0, None, 2.0),
        Spend(30, 2.0, 300.0, 6.0, None, 4.0),
        Spend(20, 0.5, 50.0, 1.0, None, 1.0),
    ]
    seeds = [
        _checked("lib-seed0", 40.0, title="Lib", seed=0, instances=100, spend=spends[0]),
        _checked("lib-seed1", 50.0, title="Lib", seed=1, instances=300, spend=spends[1]),
        _checked("lib-seed2", 60.0, title="Lib", seed=2, instances=100, spend=spends[2]),
    ]
    other = _checked("other", 55.0, learner="B")
    board = leaderboard([*seeds, other])
    ((pooled, single),) = [t.rows for t in board.reported]
    assert pooled.seeds == (0, 1, 2) and pooled.seed is None and pooled.rank == 1 and single.rank == 2
    assert pooled.name == "Lib"  # the seed's suffix (", seed 0") is dropped from the shared name
    assert [r.path for r in pooled.by_seed] == [c.path for c in seeds]
    assert all(r.rank == 1 for r in pooled.by_seed)
    u = (40.0 * 100 + 50.0 * 300 + 60.0 * 100) / 500
    se = math.sqrt((100 * 2.0) ** 2 + (300 * 2.0) ** 2 + (100 * 2.0) ** 2) / 500
    assert pooled.stream.budget_used == pytest.approx(u) and pooled.stream.standard_error == pytest.approx(se)
    assert pooled.stream.instances == 500
    saved = [0.4, 0.5, 0.6]
    assert pooled.seen["share_saved"].value == pytest.approx(sum(saved) / 3)
    assert (pooled.seen["share_saved"].low, pooled.seen["share_saved"].high) == (0.4, 0.6)
    assert (
        pooled.spend is not None and pooled.spend.usd == pytest.approx(3.5) and pooled.spend.instances == 60
    )
    assert pooled.spend.usd_per_instance == pytest.approx(3.5 / 60)
    assert single.seeds == (0,) and single.by_seed == ()
    text = leaderboard_markdown(board, by_seed=True)
    assert "| arc1, 3 seeds (0, 1, 2) |" in text and "seed 1: Lib, seed 1" in text
    assert "seed 1: Lib" not in leaderboard_markdown(board)
    lines = leaderboard_csv(board).splitlines()
    assert len(lines) == 1 + 4  # one line per result, each seed its own


def test_a_public_stream_result_stands_beside_its_verified_one_by_learner_code() -> None:
    verified = _checked("mine-verified", 30.0, _signed(StandingKind.VERIFIED, code="abc"), learner="M")
    public = _checked("mine-public", 20.0, code="abc", learner="M")
    stranger = _checked("other-public", 10.0, code="xyz", learner="O")
    board = leaderboard([verified, public, stranger])
    ((row,),) = [t.rows for t in board.tables]
    assert [(p.path, p.budget_used) for p in row.public] == [("results/mine-public", 20.0)]
    beside = {r.path: r.beside for t in board.reported for r in t.rows}
    assert beside == {"results/mine-public": ("mine-verified, seed 0",), "results/other-public": ()}


def test_a_result_not_checked_here_is_listed_apart_never_refused() -> None:
    missing = NotHere("arc3", "the arc3 track needs Python 3.12", "pip install X, then continual-arc check P")
    entry = dataclasses.replace(_checked("game", 10.0), ok=False, numbers=None, stream=None, not_here=missing)
    board = leaderboard([entry, _checked("grid", 20.0)])
    assert board.refused == () and [r.path for t in board.reported for r in t.rows] == ["results/grid"]
    (listed,) = board.not_here
    assert (listed.path, listed.track, listed.reason, listed.command) == (
        "results/game",
        "arc3",
        missing.reason,
        missing.command,
    )
    text = leaderboard_markdown(board)
    assert "## Not checked here" in text and "Refused" not in text
    assert f"- results/game (game, seed 0): {missing.reason}; to check it: {missing.command}" in text


def test_spend_is_read_as_report_reads_resources() -> None:
    def record(step: int, cost: float, tokens: tuple[int, int], time: float) -> dict[str, Any]:
        return {
            "step": step,
            "user": 0,
            "episode_type": "primary",
            "learner_time": time,
            "instance_resources": {
                "cost": cost,
                "prompt_tokens": tokens[0],
                "completion_tokens": tokens[1],
                "calls": 1.0,
            },
        }

    stream = [record(0, 0.5, (100, 20), 1.5), record(1, 0.25, (50, 10), 0.5)]
    test = [record(0, 1.0, (10, 5), 2.0)]
    trained = [
        {**stream[0], "training_resources": {"gpu_seconds": 3.0}},
        {**stream[1], "training_resources": {"gpu_seconds": 7.0}},
    ]
    spend = spend_of_runs([(stream, False), (test, False)], trained)  # type: ignore[list-item]
    assert (spend.instances, spend.usd, spend.tokens, spend.calls, spend.searches) == (
        3,
        1.75,
        195.0,
        3.0,
        None,
    )
    assert spend.learner_seconds == pytest.approx(4.0) and spend.training == {"gpu_seconds": 7.0}
    assert spend.usd_per_instance == pytest.approx(1.75 / 3)
