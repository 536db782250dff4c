"""The teacher object: its name, its keywords, its own counts and its own cap behind the tracking proxy."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.learner import TEACHER_COUNTERS, check_teacher_name
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy
from continual_arc_baselines.teacher import Teacher, TeacherBudgetReached, TeacherSettings

STUDENT = "qwen/qwen3.5-9b"
TEACHER = "z-ai/glm-5.3-flash"
COST = 0.25  # USD a call, exact in binary


def _reply(body: dict[str, Any]) -> dict[str, Any]:
    return {"text": f"move for {body['model']}", "cost": COST}


@pytest.fixture
def rig() -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    with ExitStack() as stack:
        fake = stack.enter_context(FakeModelServer(_reply))
        config = ProxyConfig(upstream=fake.url, models=(STUDENT, TEACHER))
        yield fake, stack.enter_context(serve_proxy(config))


def served_to(fake: FakeModelServer, model: str) -> dict[str, float]:
    """The upstream's own bill of one model's calls, tokens and cost: the truth the counters are held to."""
    mine = [entry for entry in fake.bill if entry["model"] == model]
    return {
        "calls": float(len(mine)),
        "prompt_tokens": float(sum(e["tokens_prompt"] for e in mine)),
        "completion_tokens": float(sum(e["tokens_completion"] for e in mine)),
        "cost": float(sum(e["total_cost"] for e in mine)),
    }


_ORG = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12).filter(
    lambda s: s[0] != "-"
)
_COMMIT = st.text(alphabet="0123456789abcdef", min_size=7, max_size=40)


@given(org=_ORG, name=_ORG, commit=st.none() | _COMMIT)
def test_a_published_name_is_accepted(org: str, name: str, commit: str | None) -> None:
    given_name = f"{org}/{name}" + ("" if commit is None else f"@{commit}")
    assert check_teacher_name(given_name) == given_name


@pytest.mark.parametrize(
    "name",
    [
        "glm",
        "z-ai/glm:online",
        "z-ai/glm@main",
        "z-ai/glm@ABCDEF1",
        "z-ai/glm@abc",
        " z-ai/glm",
        "a/b/c",
        3,
        "",
    ],
)
def test_anything_else_is_refused_in_one_sentence(name: object) -> None:
    with pytest.raises(ValueError, match="names no published model"):
        check_teacher_name(name)


def test_the_keywords_are_taken_out_and_nothing_named_is_no_teacher() -> None:
    kwargs: dict[str, Any] = {"model": STUDENT, "teacher": TEACHER, "teacher_budget_usd": 1.5}
    teacher = Teacher.from_kwargs(kwargs, student_run_id="r", base_url="http://127.0.0.1:9/v1")
    assert teacher is not None and kwargs == {"model": STUDENT}
    assert (teacher.model, teacher.run_id, teacher.settings.budget_usd) == (TEACHER, "r-teacher", 1.5)
    teacher.close()
    assert Teacher.from_kwargs({"model": STUDENT}, student_run_id="r") is None
    with pytest.raises(ValueError, match="need a teacher"):
        Teacher.from_kwargs({"teacher_budget_usd": 1.0}, student_run_id="r")
    for budget in (-1.0, float("nan"), True):
        with pytest.raises(ValueError, match="teacher_budget_usd"):
            TeacherSettings(TEACHER, budget)


def test_its_calls_are_counted_apart_from_the_students_and_equal_the_upstreams(
    rig: tuple[FakeModelServer, ProxyHandle],
) -> None:
    fake, proxy = rig
    student = httpx.post(
        f"{proxy.url}/chat/completions",
        json={"model": STUDENT, "messages": [{"role": "user", "content": "a b c"}]},
        headers={"X-Continual-ARC-Run": "r"},
    )
    assert student.status_code == 200
    teacher = Teacher(TeacherSettings(TEACHER), student_run_id="r", base_url=proxy.url)
    for n in range(3):
        assert teacher.chat([{"role": "user", "content": f"label state {n}"}], instance="t/0/0") is not None
    teacher.end_round()
    counts = teacher.resources()
    assert set(counts) == set(TEACHER_COUNTERS)
    want = served_to(fake, TEACHER)
    assert {k: counts[k] for k in want} == want
    assert counts["uncharged_plays"] == 0.0
    # The student's call is the student's run's, never the teacher's.
    assert proxy.ledger.totals("r").calls == 1 and proxy.ledger.totals("r-teacher").calls == 3
    teacher.close()


def test_the_proxy_admits_exactly_the_student_and_the_teacher(
    rig: tuple[FakeModelServer, ProxyHandle],
) -> None:
    _, proxy = rig
    other = httpx.post(
        f"{proxy.url}/chat/completions",
        json={"model": "openai/gpt-5", "messages": [{"role": "user", "content": "x"}]},
    )
    assert other.status_code == 403


def test_its_own_budget_stops_the_run(rig: tuple[FakeModelServer, ProxyHandle]) -> None:
    fake, proxy = rig
    teacher = Teacher(TeacherSettings(TEACHER, budget_usd=2 * COST), student_run_id="r", base_url=proxy.url)
    for n in range(2):
        teacher.chat([{"role": "user", "content": f"label {n}"}], instance="t/0/0")
    with pytest.raises(TeacherBudgetReached, match="teacher_budget_usd"):
        teacher.chat([{"role": "user", "content": "one too many"}], instance="t/0/0")
    assert len(fake.chat_requests) == 2  # the refused call never left
    teacher.close()


def test_a_resumed_teacher_continues_its_counters_and_its_cap(
    rig: tuple[FakeModelServer, ProxyHandle],
) -> None:
    _, proxy = rig
    before = {"calls": 4.0, "cost": 3 * COST, "prompt_tokens": 10.0, "uncharged_plays": 2.0}
    teacher = Teacher(
        TeacherSettings(TEACHER, budget_usd=4 * COST), student_run_id="again", base_url=proxy.url
    )
    teacher.resume([{"teacher_resources": before}])
    assert teacher.resources()["uncharged_plays"] == 2.0 and teacher.resources()["calls"] == 4.0
    teacher.chat([{"role": "user", "content": "one more"}], instance="t/1/0")  # 3 + 1 calls' cost: at the cap
    teacher.played_uncharged()
    with pytest.raises(TeacherBudgetReached):
        teacher.end_round()
    counts = teacher.resources()
    assert counts["calls"] == 5.0 and counts["cost"] == pytest.approx(4 * COST)
    assert counts["uncharged_plays"] == 3.0
    teacher.close()


def test_the_settings_of_its_calls_are_checked_and_a_named_run_is_kept() -> None:
    for calls, why in (
        ({"effrot": "high"}, "teacher_options has no setting 'effrot'"),
        ({"max_calls": "3"}, "teacher_options max_calls must be int, got '3'"),
        ({"max_calls": 0}, "max_calls must be at least 1"),
        ({"run_id": 7}, "teacher_options run_id must name the teacher's run"),
    ):
        with pytest.raises(ValueError, match=why):
            TeacherSettings(TEACHER, calls=calls)
    settings = TeacherSettings(TEACHER, effort="high", calls={"max_calls": 3, "run_id": "t"})
    teacher = Teacher(settings, student_run_id="s", base_url="http://127.0.0.1:9/v1")
    try:
        made = teacher.session.settings
        assert (made.model, made.effort, made.max_calls, made.run_id) == (TEACHER, "high", 3, "t")
        teacher.join_run("s2")  # a named run stays named
        assert teacher.run_id == teacher.session.client.run_id == "t"
    finally:
        teacher.close()
