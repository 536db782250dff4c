"""The learners that keep a prior over programs: when it changes, what it holds, reset, saving."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.files import read_json
from continual_arc.core.grids import Pair
from continual_arc.env import Action, InstanceEnv, LearnerObservation
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import check_learner
from continual_arc.tracks.registry import get_config
from continual_arc.tracks.sources import TaskInstance
from continual_arc_baselines.dsl import Prior
from continual_arc_baselines.library import PriorLibraryLearner, PriorOnlyLearner, ProgramLibraryLearner
from continual_arc_baselines.library.memory import EarlyAnswers

SMOKE = with_users(get_config("arc1-smoke"), 3)


@pytest.mark.slow
@pytest.mark.parametrize(
    "factory",
    [
        ProgramLibraryLearner,
        PriorLibraryLearner,
        PriorOnlyLearner,
        lambda: ProgramLibraryLearner(keep="both", learn_prior=True),
        lambda: ProgramLibraryLearner(keep="nothing"),
        lambda: ProgramLibraryLearner(search_cache=False),
    ],
    ids=["library", "prior-library", "prior-only", "both-and-prior", "reset", "no-cache"],
)
def test_every_variant_passes_the_learner_checker(factory: Any) -> None:
    assert check_learner(factory) == []


class _Watched(PriorLibraryLearner):
    """Notes the prior its writer searches under at every action, by round."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[str]] = []

    def begin_round(self) -> None:
        super().begin_round()
        self.seen.append([])

    def act(self, obs: LearnerObservation) -> Action:
        self.seen[-1].append(self.writer.prior.fingerprint())  # type: ignore[attr-defined]
        return super().act(obs)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, _Watched]:
    out = tmp_path_factory.mktemp("prior") / "stream"
    learner = _Watched()
    run(learner, build_schedule(SMOKE, 0, epilogue=False), out)
    return out, learner


def test_the_prior_changes_only_between_rounds(played: tuple[Path, _Watched]) -> None:
    _, learner = played
    assert all(len(set(actions)) == 1 for actions in learner.seen if actions)  # one prior per round
    firsts = [actions[0] for actions in learner.seen if actions]
    assert firsts[0] == "empty" and len(set(firsts)) > 1  # and it did change at some round's end


def test_the_prior_holds_what_the_search_wrote_that_answered_right(played: tuple[Path, _Watched]) -> None:
    out, learner = played
    # Rebuilt from the trajectories alone: each instance solved by a program its own writes listed.
    programs = []
    for path in sorted((out / "i").glob("*.json"), key=lambda p: int(p.stem)):
        log = read_json(path)["learner_log"]
        written = {text for event in log["events"] for text in event.get("programs", [])}
        if log["solved_by"] is not None and log["solved_by"] in written:
            programs.append(log["solved_by"])
    assert programs
    expected = Prior.empty().learn(programs)
    assert learner.prior == expected
    assert read_json(out / "memory.json")["prior"] == expected.to_json()


def test_state_round_trips_and_reset_wipes_the_prior(played: tuple[Path, _Watched], tmp_path: Path) -> None:
    _, learner = played
    learner.save_state(tmp_path)
    saved = read_json(tmp_path / "library.json")
    assert saved["prior"] == learner.prior.to_json() and saved["programs"]
    fresh = PriorLibraryLearner()
    fresh.load_state(tmp_path)
    assert fresh.prior == learner.prior and fresh.writer.prior == learner.prior  # type: ignore[attr-defined]
    assert fresh.library == learner.library
    fresh.reset()
    assert fresh.prior.is_empty and fresh.writer.prior.is_empty  # type: ignore[attr-defined]
    assert not fresh.library.programs


@pytest.mark.slow
def test_the_prior_only_learner_keeps_no_program(tmp_path: Path) -> None:
    learner = PriorOnlyLearner()
    assert not learner.stateless
    run(learner, build_schedule(SMOKE, 0, epilogue=False, rounds=12), tmp_path / "run")
    assert not learner.library.programs and not learner.library.demos
    assert not learner.prior.is_empty


def test_learn_prior_needs_a_writer_with_a_prior() -> None:
    class Plain:
        name = "plain"

    with pytest.raises(ValueError, match="learn_prior"):
        ProgramLibraryLearner(writer=Plain(), learn_prior=True)  # type: ignore[arg-type]


def _flip_instance(seed: int) -> InstanceEnv:
    rng = random.Random(seed)

    def pair(index: int) -> Pair:
        grid = tuple(tuple(rng.choice([0, 0, 1, 2, 3]) for _ in range(5)) for _ in range(4))
        return grid, tuple(row[::-1] for row in grid)

    pairs = [pair(i) for i in range(6)]
    test = pairs.pop()
    supply = lambda count: tuple(pairs[:count])  # noqa: E731
    return InstanceEnv(TaskInstance("hand", "flip", seed, test[0], test[1], 5, supply))


def _play(learner: ProgramLibraryLearner, env: InstanceEnv) -> tuple[int, bool]:
    while not env.done:
        obs = env.view("flip", 0, 0, 0)
        action = learner.act(obs)
        learner.observe(obs, action, env.step(action))
    learner.end_round()
    return env.result().demos_bought, env.result().solved


def test_a_prior_that_vouches_for_the_answer_saves_a_demonstration(tmp_path: Path) -> None:
    trusting = PriorLibraryLearner(search_cache=False)
    trusting.save_state(tmp_path)
    saved = read_json(tmp_path / "library.json")
    saved["prior"] = Prior.empty().learn(["flip_h"]).to_json()
    (tmp_path / "library.json").write_text(json.dumps(saved))
    trusting.load_state(tmp_path)
    # Two demonstrations: every fitting program agrees and flip_h answered right before.
    assert _play(trusting, _flip_instance(1)) == (2, True)
    trusting.reset()  # its reset holds an empty prior, so it buys the usual three
    assert _play(trusting, _flip_instance(1)) == (3, True)
    assert _play(PriorLibraryLearner(search_cache=False, trust=False), _flip_instance(1)) == (3, True)


def test_early_answers_are_trusted_after_enough_of_them_were_right() -> None:
    # A uniform prior updated by the outcomes: (right + 1) / (seen + 2) must reach 0.75, over 8 or more.
    assert not EarlyAnswers(7, 0).trusted()  # 8/9 = 0.89, but only 7 seen
    assert EarlyAnswers(8, 0).trusted()  # 9/10
    assert EarlyAnswers(7, 1).trusted()  # 8/10 = 0.8
    assert not EarlyAnswers(6, 2).trusted()  # 7/10 = 0.7
    assert EarlyAnswers(6, 2).add(3, 0) == EarlyAnswers(9, 2)
    assert EarlyAnswers.from_json(EarlyAnswers(4, 1).to_json()) == EarlyAnswers(4, 1)
    with pytest.raises(ValueError):
        EarlyAnswers.from_json({"right": -1})


def test_early_answers_count_the_unanimous_two_demonstration_writes(played: tuple[Path, _Watched]) -> None:
    out, learner = played
    # From the trajectories alone: a write with two demonstrations that left one group, on an
    # instance that was solved or whose early answer was judged.
    known = 0
    for path in (out / "i").glob("*.json"):
        log = read_json(path)["learner_log"]
        unanimous = any(e.get("wrote_with") == 2 and e.get("groups") == 1 for e in log["events"])
        judged_early = any("early" in e for e in log["events"])
        known += unanimous and (log["solved_by"] is not None or judged_early)
    assert learner.early.right + learner.early.wrong == known > 0
    assert read_json(out / "memory.json")["early"] == learner.early.to_json()
