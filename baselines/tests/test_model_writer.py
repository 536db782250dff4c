from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from continual_arc.core.grids import Grid
from continual_arc.env import InstanceEnv
from continual_arc.tracks.registry import get_source
from continual_arc_baselines.fake_server import FakeModelServer, Script
from continual_arc_baselines.learners import ModelProgramLibrary
from continual_arc_baselines.library import WriteRequest
from continual_arc_baselines.library.answer_writer import DirectAnswerWriter
from continual_arc_baselines.library.model_session import (
    COUNT_KEYS,
    ModelRefusedError,
    ModelSession,
    ModelSettings,
)
from continual_arc_baselines.library.model_writer import ModelProgramWriter
from continual_arc_baselines.proxy import Price, ProxyConfig, serve_proxy

FLIP = "def transform(grid):\n    return [row[::-1] for row in grid]\n"
DEMOS = (
    (((1, 2), (3, 4)), ((2, 1), (4, 3))),
    (((5, 0, 0),), ((0, 0, 5),)),
)
TEST: Grid = ((7, 8, 9),)
ANSWER: Grid = ((9, 8, 7),)


def code(source: str) -> str:
    return f"Here is the program.\n```python\n{source}```\n"


LOOP = "def transform(grid):\n    while True:\n        pass\n"
CRASH = "def transform(grid):\n    return grid[99]\n"
MALFORMED = "def transform(grid):\n    return [[1, 2], [3]]\n"
FLOOD = "def transform(grid):\n    print('x' * 1_500_000)\n    return grid\n"
IDENTITY = "def transform(grid):\n    return grid\n"


@pytest.fixture
def serve() -> Iterator[Any]:
    opened: list[FakeModelServer] = []

    def make(script: Script, **settings: Any) -> tuple[FakeModelServer, ModelSession]:
        fake = FakeModelServer(script).start()
        opened.append(fake)
        settings.setdefault("program_time_limit", 2.0)
        settings.setdefault("max_retries", 0)  # a script that runs out fails at once
        options = ModelSettings(model="fake-model", base_url=fake.url, proxy_counts=False, **settings)
        return fake, ModelSession(options, "test")

    yield make
    for fake in opened:
        fake.close()


def request(wrong: tuple[Grid, ...] = ()) -> WriteRequest:
    return WriteRequest(DEMOS, TEST, "task-a/0/0", wrong)


def test_a_program_that_reproduces_every_demonstration_is_returned_with_its_answer(serve: Any) -> None:
    fake, session = serve([code(FLIP)])
    writer = ModelProgramWriter(session)
    result = writer.write(request())
    assert [(p.text, p.prediction) for p in result.programs] == [(FLIP, ANSWER)]
    assert result.work == 1 and result.note is None
    assert writer.run(FLIP, ((1, 0, 3),), "task-a/1/0") == ((3, 0, 1),)
    assert writer.resources()["sandbox_runs"] == 2
    assert len(fake.chat_requests) == 1


def test_looping_crashing_malformed_or_flooding_programs_are_failed_programs(serve: Any) -> None:
    replies = [code(LOOP), code(CRASH), code(MALFORMED), code(FLOOD), "I would flip it.", code(FLIP)]
    _, session = serve(replies, tries=6, program_time_limit=1.0)
    result = ModelProgramWriter(session).write(request())
    assert [p.text for p in result.programs] == [FLIP] and result.work == 6
    [talk] = session.transcript("task-a/0/0")  # one conversation, each failure told to the model
    said = [m["content"] for m in talk if m["role"] == "user"][1:]
    assert "time limit" in said[0]
    assert "IndexError" in said[1] and "demonstration 1" in said[1]
    assert "malformed grid" in said[2]
    assert "output limit" in said[3]
    assert "no ```python block" in said[4]
    assert [m["role"] for m in talk] == ["system", "user"] + ["assistant", "user"] * 5 + ["assistant"]


def test_a_wrong_output_is_shown_beside_the_expected_one(serve: Any) -> None:
    _, session = serve([code(IDENTITY), code(FLIP)])
    result = ModelProgramWriter(session).write(request())
    assert result.programs[0].text == FLIP
    follow_up = session.transcript("task-a/0/0")[0][3]["content"]
    assert "it returned (2x2):\n1 2\n3 4" in follow_up and "expected (2x2):\n2 1\n4 3" in follow_up


def test_after_tries_bad_replies_the_writer_returns_nothing(serve: Any) -> None:
    fake, session = serve([code(CRASH), code(CRASH), code(FLIP)], tries=2)
    result = ModelProgramWriter(session).write(request())
    assert result.programs == () and result.work == 2 and "no program fitted" in (result.note or "")
    assert len(fake.chat_requests) == 2


def test_a_program_repeating_a_wrong_answer_is_not_kept(serve: Any) -> None:
    _, session = serve([code(FLIP), code(FLIP)], tries=2)
    result = ModelProgramWriter(session).write(request(wrong=(ANSWER,)))
    assert result.programs == ()
    talk = session.transcript("task-a/0/0")[0]
    assert "judged wrong" in talk[1]["content"] and "already judged wrong" in talk[3]["content"]


def test_the_instance_call_limit_holds_across_writes(serve: Any) -> None:
    fake, session = serve([code(CRASH)] * 5, tries=3, max_calls=4)
    writer = ModelProgramWriter(session)
    assert writer.write(request()).work == 3
    second = writer.write(request())
    assert second.work == 1 and "call limit" in (second.note or "")
    assert len(fake.chat_requests) == 4


def test_run_returns_none_for_a_program_that_fails_on_the_new_input(serve: Any) -> None:
    _, session = serve([])
    writer = ModelProgramWriter(session)
    assert writer.run(CRASH, TEST, "task-a/1/0") is None
    assert writer.run("this is not python", TEST, "task-a/1/0") is None


def test_a_failing_program_never_fails_the_instance(serve: Any) -> None:
    fake = serve(lambda body: code(CRASH))[0]  # every program crashes
    learner = ModelProgramLibrary(model="fake-model", base_url=fake.url, proxy_counts=False)
    env = InstanceEnv(get_source("toy/generative").instance("toy-d3-c2", 1))
    while not env.done:
        obs = env.view("t", 0, 0, 0)
        action = learner.act(obs)
        learner.observe(obs, action, env.step(action))
    assert env.result().end == "gave up" and env.result().demos_bought == 3
    assert learner.instance_resources(0)["calls"] == 2  # tries, then the policy gives up


def test_the_answer_writer_reads_a_grid_and_asks_again_when_it_cannot(serve: Any) -> None:
    replies = ["I am not sure.", "```grid\n9 8 7\n```"] + ["```grid\n1 1 1\n```"] * 3
    _, session = serve(replies, tries=3)
    writer = DirectAnswerWriter(session)
    result = writer.write(request(wrong=()))
    assert [p.prediction for p in result.programs] == [ANSWER] and result.work == 2
    assert writer.run(result.programs[0].text, TEST, "x") is None
    assert writer.resources()["unreadable_replies"] == 1
    again = writer.write(request(wrong=(((1, 1, 1),),)))  # the model repeats a wrong answer
    assert again.programs == () and again.work == 3


def test_client_counts_are_per_instance_and_cumulative(serve: Any) -> None:
    _, session = serve(["```grid\n1\n```"] * 3)
    writer = DirectAnswerWriter(session)
    writer.write(WriteRequest(DEMOS, TEST, "a/0/0"))
    writer.write(WriteRequest(DEMOS, TEST, "b/1/0"))
    writer.write(WriteRequest(DEMOS, TEST, "b/1/0", (((9,),),)))
    session.end_round(["a/0/0", "b/1/0"])
    a, b = session.settle("a/0/0"), session.settle("b/1/0")
    assert (a["calls"], b["calls"]) == (1, 2)
    assert a["prompt_tokens"] > 0 and a["completion_tokens"] == 3  # the fake counts the reply's three words
    assert session.totals() == {k: a[k] + b[k] for k in COUNT_KEYS}
    assert session.settle("never/called/0") == dict.fromkeys(COUNT_KEYS, 0.0)


def test_a_refused_model_is_a_clear_error_and_no_later_call_is_made() -> None:
    with (
        FakeModelServer(["never used"]) as fake,
        serve_proxy(ProxyConfig(upstream=fake.url, models=("served/model",))) as proxy,
    ):
        settings = ModelSettings(model="other/model", base_url=proxy.url, max_retries=0)
        session = ModelSession(settings, "test")
        with pytest.raises(ModelRefusedError, match=r"refused the model.*'other/model'.*403"):
            session.chat([{"role": "user", "content": "hi"}], "a/0/0")
        with pytest.raises(ModelRefusedError):
            session.chat([{"role": "user", "content": "hi"}], "b/1/0")
        assert proxy.ledger.totals().refused == 1 and fake.chat_requests == []
        with pytest.raises(ModelRefusedError):
            session.end_round(["a/0/0"])
        assert session.settle("a/0/0")["refused_calls"] == 1


def test_the_spend_cap_stops_the_session_with_a_clear_error() -> None:
    with (
        FakeModelServer(lambda body: {"text": "```grid\n1\n```", "cost": 1.0}) as fake,
        serve_proxy(
            ProxyConfig(upstream=fake.url, models=("m",), spend_cap=0.5, prices={"m": Price(1.0, 1.0)})
        ) as proxy,
    ):
        session = ModelSession(ModelSettings(model="m", base_url=proxy.url, max_retries=0), "test")
        assert session.chat([{"role": "user", "content": "hi"}], "a/0/0") is not None
        with pytest.raises(ModelRefusedError, match="spend cap"):
            session.chat([{"role": "user", "content": "hi"}], "a/0/0")
        assert len(fake.chat_requests) == 1
