from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.env import (
    DemosFeedback,
    EnvSettings,
    GiveUp,
    GiveUpFeedback,
    InstanceClosedError,
    InstanceEnv,
    InvalidActionError,
    RequestDemos,
    Submit,
    SubmitFeedback,
    action_to_json,
    feedback_to_json,
)
from continual_arc.tracks.registry import get_source

ANSWER_TASK = "toy-d4-c0"  # transpose


def make_env(
    settings: EnvSettings | None = None, source: str = "toy/generative", task: str = ANSWER_TASK
) -> InstanceEnv:
    return InstanceEnv(get_source(source).instance(task, 3), settings)


def wrong(env: InstanceEnv) -> Submit:
    out = env.instance.output
    return Submit([[(x + 1) % 10 for x in row] for row in out])


def test_max_cost_is_sixteen_by_default() -> None:
    assert EnvSettings().max_cost == 16
    assert EnvSettings(attempt_cap=4, demo_cap=2, demo_cost=3).max_cost == 10


def test_correct_first_submission_costs_nothing() -> None:
    env = make_env()
    feedback = env.step(Submit(env.instance.output))
    assert feedback == SubmitFeedback(correct=True, attempts_used=0, spent=0, done=True)
    result = env.result()
    assert (result.solved, result.charge, result.end) == (True, 0, "solved")


def test_wrong_answers_and_demos_each_cost_one_when_solved() -> None:
    env = make_env()
    env.step(RequestDemos())
    env.step(wrong(env))
    env.step(RequestDemos())
    feedback = env.step(wrong(env))
    assert feedback == SubmitFeedback(correct=False, attempts_used=2, spent=4, done=False)
    env.step(Submit(env.instance.output))
    result = env.result()
    assert (result.charge, result.wrong_attempts, result.demos_bought, result.spent) == (4, 2, 2, 4)


def test_demo_cost_setting_scales_demos() -> None:
    env = make_env(EnvSettings(demo_cost=2))
    env.step(RequestDemos())
    env.step(Submit(env.instance.output))
    assert env.result().charge == 2


def test_eighth_wrong_attempt_ends_unsolved_at_max_cost() -> None:
    env = make_env()
    for k in range(1, 8):
        assert env.step(wrong(env)) == SubmitFeedback(False, k, k, False)
    last = env.step(wrong(env))
    assert last == SubmitFeedback(False, 8, 8, True)
    result = env.result()
    assert (result.solved, result.charge, result.spent, result.end) == (False, 16, 8, "attempt cap")
    with pytest.raises(InstanceClosedError):
        env.step(Submit(env.instance.output))


def test_demos_are_distinct_pairs_then_the_ninth_is_refused_free() -> None:
    env = make_env()
    pairs = []
    for k in range(1, 9):
        feedback = env.step(RequestDemos())
        assert isinstance(feedback, DemosFeedback)
        assert (feedback.demos_used, feedback.spent, feedback.refused) == (k, k, False)
        assert feedback.pair is not None
        pairs.append(feedback.pair)
    assert len({p[0] for p in pairs} | {env.instance.input}) == 9
    ninth = env.step(RequestDemos())
    assert ninth == DemosFeedback(None, 8, 8, refused=True)
    env.step(Submit(env.instance.output))
    result = env.result()
    assert (result.charge, result.demos_refused) == (8, 1)


def test_fixed_task_demo_cap_is_its_train_pairs() -> None:
    source = get_source("toy/fixed")
    train, _ = source.pairs("toyfix-01")  # type: ignore[attr-defined]
    env = InstanceEnv(source.instance("toyfix-01", 0))
    assert env.demo_cap == len(train) == 3
    got = [env.step(RequestDemos()) for _ in range(4)]
    assert [g.pair for g in got[:3]] == list(train)  # type: ignore[union-attr]
    assert got[3] == DemosFeedback(None, 3, 3, refused=True)
    assert env.view("a", 0, 0, 0).demo_cap == 3


def test_fixed_task_with_two_test_pairs_serves_the_one_the_seed_picks() -> None:
    source = get_source("toy/fixed")
    _, test = source.pairs("toyfix-00")  # type: ignore[attr-defined]
    assert len(test) == 2
    served = {source.instance("toyfix-00", seed).input for seed in range(20)}
    assert served == {test[0][0], test[1][0]}


def test_give_up_costs_the_rest_of_the_budget() -> None:
    env = make_env()
    env.step(RequestDemos())
    assert env.step(GiveUp()) == GiveUpFeedback()
    result = env.result()
    assert (result.solved, result.charge, result.end) == (False, 16, "gave up")


def test_invalid_grid_is_a_wrong_attempt_not_a_crash() -> None:
    env = make_env()
    feedback = env.step(Submit([[1, 2], [3]]))
    assert isinstance(feedback, SubmitFeedback)
    assert (feedback.correct, feedback.attempts_used, feedback.spent) == (False, 1, 1)
    assert feedback.invalid is not None and "row 1" in feedback.invalid
    assert env.step(Submit("not a grid")).attempts_used == 2


def test_non_action_is_refused() -> None:
    env = make_env()
    with pytest.raises(InvalidActionError):
        env.step("submit")  # type: ignore[arg-type]
    assert env.actions == 0


def test_action_cap_ends_a_learner_that_loops_on_refused_requests() -> None:
    env = make_env(EnvSettings(demo_cap=1, action_cap=10))
    for _ in range(9):
        assert not env.step(RequestDemos()).done
    last = env.step(RequestDemos())
    assert last.done
    result = env.result()
    assert (result.end, result.charge, result.demos_refused) == ("action cap", 9, 9)  # max_cost 8 + 1


def test_fail_charges_max_cost() -> None:
    env = make_env()
    env.fail("learner error")
    assert env.result().charge == 16 and env.result().end == "learner error"


def test_view_shows_only_the_instance() -> None:
    env = make_env()
    env.step(RequestDemos())
    view = env.view("task-abc", step=5, round=2, user=1, extra={"hint": "x"})
    assert view.task_id == "task-abc"
    assert (view.demos_used, view.attempts_used, view.attempt_cap, view.demo_cap) == (1, 0, 8, 8)
    assert view.demos == tuple(env.demos)
    assert (view.step, view.round, view.user, dict(view.extra)) == (5, 2, 1, {"hint": "x"})
    fields = set(view.__dataclass_fields__)
    assert not fields & {"phase", "seed", "reset_before", "exposure_index", "gap"}


def test_json_forms() -> None:
    assert action_to_json(Submit([[1]])) == {"action": "submit", "grid": [[1]]}
    assert action_to_json(Submit([[1], [2, 3]]))["grid"] == "[[1], [2, 3]]"
    assert action_to_json(GiveUp()) == {"action": "give_up"}
    pair = (((1,),), ((2,),))
    assert feedback_to_json(DemosFeedback(pair, 1, 1))["pair"] == [[[1]], [[2]]]


actions = st.lists(st.sampled_from(["right", "wrong", "invalid", "demo", "give_up"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(actions, st.integers(1, 8), st.integers(0, 8), st.integers(0, 3))
def test_any_action_sequence_costs_what_the_rules_say(
    sequence: list[str], attempt_cap: int, demo_cap: int, demo_cost: int
) -> None:
    settings_ = EnvSettings(attempt_cap=attempt_cap, demo_cap=demo_cap, demo_cost=demo_cost)
    env = make_env(settings_)
    wrong_n = demos = 0
    end = None
    for kind in sequence:
        if env.done:
            break
        if kind == "right":
            env.step(Submit(env.instance.output))
            end = "solved"
        elif kind in ("wrong", "invalid"):
            env.step(wrong(env) if kind == "wrong" else Submit([[]]))
            wrong_n += 1
            end = "attempt cap" if wrong_n == attempt_cap else None
        elif kind == "demo":
            env.step(RequestDemos())
            demos = min(demos + 1, demo_cap)
        else:
            env.step(GiveUp())
            end = "gave up"
    if not env.done:
        env.step(GiveUp())
        end = "gave up"
    result = env.result()
    expected = wrong_n + demo_cost * demos if end == "solved" else settings_.max_cost
    assert result.end == end
    assert result.charge == expected
    assert 0 <= result.charge <= settings_.max_cost
    assert (result.wrong_attempts, result.demos_bought) == (wrong_n, demos)
