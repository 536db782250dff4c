"""The prior over programs: what it learns, the costs it gives, and its effect on a search."""

from __future__ import annotations

import json
import random

import pytest

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import Prior, search
from continual_arc_baselines.dsl.prior import Macro, skeleton, token


def test_a_skeleton_drops_fitted_constants_maps_and_bg0() -> None:
    assert token("window(tl){3,4}") == "window(tl)"
    assert skeleton("bg0 | pick(8,big) | window(tl){3,4} | map(c1>c2,11>3)") == ("pick(8,big)", "window(tl)")
    assert skeleton("map(c1>c2)") == ()


def test_learning_counts_skeletons_and_returns_a_new_prior() -> None:
    empty = Prior.empty()
    learned = empty.learn(["crop | map(c1>c2)", "crop | map(c1>c3)", "fill | map(11>4)", "map(c1>c2)"])
    assert empty.is_empty and empty.skeletons == {}  # unchanged: priors are immutable
    assert learned.skeletons == {"crop": 2, "fill": 1}  # a bare colour map teaches nothing


def test_the_empty_prior_gives_the_base_costs() -> None:
    base = {"crop": 1.0, "fill": 2.0, "rot90": 2.0}
    assert Prior.empty().step_costs(base) == base


def test_learned_costs_follow_the_smoothed_frequencies() -> None:
    # Worked by hand. Base costs 1, 2, 2 give base probabilities q = 1/2, 1/4, 1/4 (they sum to 1).
    # Skeleton weights: crop answered twice -> 1 + log2(2) = 2, fill once -> 1; N = 3, alpha = 24.
    # p(crop) = (2 + 12) / 27, p(fill) = (1 + 6) / 27, p(rot90) = 6 / 27.
    # shift = log2(q / p): crop log2(27/28) = -0.0525, fill the same, rot90 log2(27/24) = +0.1699;
    # rounded to 1/16 bit: crop 0.9475 -> 15/16, fill 1.9475 -> 31/16, rot90 2.1699 -> 35/16.
    prior = Prior.empty().learn(["crop", "crop", "fill"])
    costs = prior.step_costs({"crop": 1.0, "fill": 2.0, "rot90": 2.0})
    assert costs == {"crop": 15 / 16, "fill": 31 / 16, "rot90": 35 / 16}


def test_costs_move_within_their_bounds() -> None:
    # A rare step used often. q(crop) = 2^-6 / (2^-6 + 2^-1) = 0.0303, q(fill) = 0.9697; crop's
    # weight is 1 + log2(1024) = 11, so p(crop) = (11 + 24 * 0.0303) / 35 = 0.335 and
    # p(fill) = 24 * 0.9697 / 35 = 0.665: shifts of -3.47 and +0.54 bits, capped at -1.5 and +0.5.
    prior = Prior.empty().learn(["crop"] * 1024)
    costs = prior.step_costs({"crop": 6.0, "fill": 1.0})
    assert costs == {"crop": 4.5, "fill": 1.5}


def test_frequent_runs_become_macros() -> None:
    # "crop | flip_h" sits in two skeletons of weight 1 (weight 2: a macro); the rest in one.
    prior = Prior.empty().learn(["crop | flip_h", "crop | flip_h | up(2)"])
    costs = {"crop": 1.0, "flip_h": 2.0, "up(2)": 2.0}
    # Cost: 1 + 2 less log2(1 + 2) = 1.585, so 1.415, rounded to 1/16 bit: 23/16.
    assert prior.macros(costs) == (Macro(("crop", "flip_h"), 23 / 16),)
    assert prior.macros({"crop": 1.0}) == ()  # a run with a step the search does not know is left out


def test_json_round_trip_and_fingerprint() -> None:
    prior = Prior.empty().learn(["fill | map(11>4)", "crop", "crop | up(2)"])
    text = json.dumps(prior.to_json())
    assert json.loads(text) == {"format": 1, "skeletons": {"crop": 1, "crop | up(2)": 1, "fill": 1}}
    again = Prior.from_json(json.loads(text))
    assert again == prior and again.fingerprint() == prior.fingerprint()
    assert Prior.empty().fingerprint() == "empty"
    assert prior.fingerprint() != Prior.empty().learn(["crop"]).fingerprint()
    # The order programs were learnt in does not matter.
    assert Prior.empty().learn(["crop", "fill"]).to_json() == Prior.empty().learn(["fill", "crop"]).to_json()


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"format": 2, "skeletons": {}},
        {"format": 1, "skeletons": {"crop": 0}},
        {"format": 1, "skeletons": []},
    ],
)
def test_from_json_refuses_what_is_not_a_prior(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Prior.from_json(bad)


def _crop_then_flip(seed: int) -> Pair:
    rng = random.Random(seed)
    h, w = rng.randint(6, 9), rng.randint(6, 9)
    rows = [[0] * w for _ in range(h)]
    top, left = rng.randint(0, h - 3), rng.randint(0, w - 3)
    for y in range(3):
        for x in range(3):
            rows[top + y][left + x] = rng.choice([1, 2, 3])
    rows[top][left] = 4  # an asymmetric corner, so the flip shows
    box = [r[left : left + 3] for r in rows[top : top + 3]]
    grid: Grid = tuple(tuple(r) for r in rows)
    return grid, tuple(tuple(r[::-1]) for r in box)


def test_a_learnt_macro_reaches_a_two_step_program_sooner() -> None:
    pairs = [_crop_then_flip(seed) for seed in range(4)]
    demos, test = pairs[:3], pairs[3]
    plain = search(demos, test[0])
    learned = search(demos, test[0], prior=Prior.empty().learn(["crop | flip_h"] * 2))
    right = [c for c in plain.candidates if c.prediction == test[1]]
    assert right and learned.candidates[0].prediction == test[1]
    assert learned.candidates[0].program.text == "crop | flip_h"
    assert learned.candidates[0].found_at < right[0].found_at
