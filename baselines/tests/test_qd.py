"""QD: the trained learner imitating a teacher's move in every state it met, the teacher behind a proxy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from qd_rig import TEACHER, FakeTeacher, fenced, teacher_rig

from continual_arc.core.games import GameFeedback, GameObservation, encode_frame
from continual_arc.env import GameAction, GiveUp
from continual_arc.learner import TEACHER_COUNTERS
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.game_play import game_messages
from continual_arc_baselines.proxy import Price, ProxyHandle
from continual_arc_baselines.serve import resolve_model
from continual_arc_baselines.teacher import Teacher, TeacherSettings
from continual_arc_baselines.trained.learner import Taught
from continual_arc_baselines.trained.lora import COMPUTE_KEYS
from continual_arc_baselines.trained.moves import PLAYING_RULES, Kind, State, ask_move, game_line
from continual_arc_baselines.trained.qd import Pair, QDLearner

FAST = {"learning_rate": 0.05, "epochs": 1, "max_tokens": 8, "max_calls": 2, "max_retries": 0}


@pytest.fixture
def teacher_server() -> Iterator[tuple[FakeTeacher, FakeModelServer, ProxyHandle]]:
    with teacher_rig() as rig:
        yield rig


def test_the_teacher_reads_the_rules_then_the_state_and_answers_as_the_student_writes(
    teacher_server: tuple[FakeTeacher, FakeModelServer, ProxyHandle],
) -> None:
    script, fake, proxy = teacher_server
    settings = TeacherSettings(TEACHER, calls={"max_retries": 0})
    teacher = Teacher(settings, student_run_id="qd-run", base_url=proxy.url)
    try:
        shown = ({"role": "system", "content": "rules"}, {"role": "user", "content": "input (1x1):\n7"})
        moves = []
        for n in range(6):
            kind: Kind = "game" if n % 2 else "grid"
            extra = ({"role": "user", "content": f"Offered actions: ACTION6 {n}"},) if kind == "game" else ()
            state = State(kind, (*shown, *extra, {"role": "user", "content": f"state {n}"}), f"i{n}")
            moves.append(ask_move(teacher, state)[1])
        teacher.end_round()
        requests = fake.chat_requests
        assert len(requests) == 6
        for request in requests:
            system, user = request.body["messages"]
            assert system["role"] == "system" and system["content"].endswith(PLAYING_RULES)
            assert "[system]\nrules" in user["content"] and "input (1x1):\n7" in user["content"]
        expected = []
        for _, reply in script.replies:
            if reply.startswith("My answer"):
                expected.append(reply.split(":\n", 1)[1])
            elif "ACTION6" in reply:
                expected.append("ACTION6 3 4")
            else:
                expected.append(None)
        assert moves == expected and None in expected  # the fake's hash leaves one state without a move
        counted = teacher.resources()
        served = [u for u in fake.served if u is not None]
        assert counted["calls"] == 6 and counted["uncharged_plays"] == 0
        assert counted["prompt_tokens"] == sum(u["prompt_tokens"] for u in served)
        assert counted["completion_tokens"] == sum(u["completion_tokens"] for u in served)
        assert proxy.ledger.totals("qd-run-teacher").calls == 6  # under the teacher's own run name
    finally:
        teacher.close()


def test_a_game_move_is_written_as_the_student_parses_it() -> None:
    assert game_line(GameAction("ACTION6", 12, 40)) == "ACTION6 12 40"
    assert game_line(GameAction("ACTION3")) == "ACTION3"
    assert game_line(GiveUp()) == "GIVE UP"


def qd(tiny_model: Path, proxy: ProxyHandle, **extra: Any) -> QDLearner:
    name = resolve_model(str(tiny_model)).name
    options = {**FAST, "teacher_options": {"max_retries": 0}, **extra}
    return QDLearner(name, TEACHER, weights=str(tiny_model), teacher_base_url=proxy.url, **options)


def weights(learner: QDLearner) -> dict[str, list[Any]]:
    return {k: v.tolist() for k, v in learner.adapter.weights().items()}


class Watched(QDLearner):
    """QD noting, at each round's end, how many pairs the round added and whether the adapters moved."""

    rounds: list[tuple[int, bool]]

    def end_round(self) -> None:
        before, added = weights(self), len(self._round)
        super().end_round()
        self.rounds = [*getattr(self, "rounds", []), (added, weights(self) != before)]


def test_qd_trains_on_the_teachers_moves_in_the_states_the_student_met(
    tiny_model: Path, tmp_path: Path, teacher_server: tuple[FakeTeacher, FakeModelServer, ProxyHandle]
) -> None:
    script, fake, proxy = teacher_server
    name = resolve_model(str(tiny_model)).name
    options: dict[str, Any] = {**FAST, "teacher_options": {"max_retries": 0}}
    learner = Watched(name, TEACHER, weights=str(tiny_model), teacher_base_url=proxy.url, **options)
    try:
        base = weights(learner)
        schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
        result = run(learner, schedule, tmp_path / "run")
        student_log = learner.server.served
        learner.save_state(tmp_path / "state")
        after = weights(learner)
        compute = dict(learner.training_resources())
        named = dict(learner.teacher_resources())
    finally:
        learner.close()
    records = result.records
    assert all(r["error"] is None for r in records)
    # Every student call met a state the teacher was asked in, one teacher call each.
    requests = fake.chat_requests
    assert all(r.body["model"] == TEACHER for r in requests)
    assert len(requests) == len(student_log) == named["calls"] > 0
    served = [u for u in fake.served if u is not None]
    for key in ("prompt_tokens", "completion_tokens"):
        assert named[key] == sum(u[key] for u in served)
    assert named["uncharged_plays"] == 0 and set(named) == set(TEACHER_COUNTERS)
    # The teacher is counted in one place: training compute is the adapters' own.
    assert set(compute) == set(COMPUTE_KEYS)
    assert records[-1]["teacher_resources"] == named
    # The student's own counts hold the student alone.
    counts = [r["instance_resources"] for r in records]
    assert sum(c["calls"] for c in counts) == len(student_log)
    # The labels trained on are the teacher's replies, read from what the server sent.
    pairs = [
        Pair.from_json(json.loads(line))
        for line in (tmp_path / "state" / "pairs.jsonl").read_text().splitlines()
    ]
    sent = script.grid_moves()
    assert [p.move for p in pairs] == sent and len(sent) < len(script.replies)
    assert learner.memory()["labels"] == len(pairs)
    assert learner.memory()["unreadable_labels"] == len(script.replies) - len(pairs)
    for pair, (state, _) in zip(
        pairs, [s for s in script.replies if s[1].startswith("My answer")], strict=True
    ):
        assert all(m["content"] in state for m in pair.messages)  # the state is the student's view
    assert after != base and compute["rounds_trained"] > 0
    # Every round that added a teacher's label moved the adapters; none moved before the first label.
    assert any(added for added, _ in learner.rounds)
    first = next(n for n, (added, _) in enumerate(learner.rounds) if added)
    assert all(moved for added, moved in learner.rounds if added)
    assert not any(moved for _, moved in learner.rounds[:first])
    rounds = max(r["round"] for r in records) + 1
    # DAgger's aggregate: every round trains on every pair collected so far (one epoch).
    per_round = [0] * rounds
    for record in records:
        log = json.loads((tmp_path / "run" / "i" / f"{record['step']}.json").read_text())["learner_log"]
        per_round[record["round"]] += len(log["teacher"]["moves"])
    assert sum(per_round) == len(pairs)
    running = [sum(per_round[: n + 1]) for n in range(rounds)]
    assert compute["examples_trained"] == sum(running)


def test_save_load_and_reset_keep_the_pairs_and_the_teachers_counts(
    tiny_model: Path, tmp_path: Path, teacher_server: tuple[FakeTeacher, FakeModelServer, ProxyHandle]
) -> None:
    _, _, proxy = teacher_server
    learner = qd(tiny_model, proxy)
    try:
        schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
        run(learner, schedule, tmp_path / "run")
        learner.save_state(tmp_path / "state")
        saved, counted = weights(learner), dict(learner.teacher_resources())
        labels = learner.memory()["labels"]
        learner.reset()
        assert learner.memory()["pairs"] == 0
        assert learner.teacher_resources() == counted and counted["calls"] > 0  # spent is spent
    finally:
        learner.close()
    again = qd(tiny_model, proxy)
    try:
        again.load_state(tmp_path / "state")
        assert weights(again) == saved
        assert again.memory()["labels"] == labels
        # A state loaded is no resumed run: the teacher's calls are counted by the play that made them.
        assert again.teacher_resources()["calls"] == 0
        again.save_state(tmp_path / "again")
        for name in ("pairs.jsonl", "qd.json", "adapter.safetensors"):
            assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "state" / name).read_bytes()
    finally:
        again.close()


@pytest.mark.parametrize(("replay", "trained"), [(None, 5), (1, 3), (0, 2), (10, 5)])
def test_replay_bounds_the_earlier_pairs_trained_beside_the_new(
    tiny_model: Path,
    teacher_server: tuple[FakeTeacher, FakeModelServer, ProxyHandle],
    replay: int | None,
    trained: int,
) -> None:
    _, _, proxy = teacher_server
    learner = qd(tiny_model, proxy, replay=replay)
    try:

        def pair(n: int) -> Pair:
            return Pair("grid", f"i{n}", ({"role": "user", "content": f"input {n}"},), fenced([[n]]))

        learner.begin_round()
        learner._pairs = [pair(0), pair(1), pair(2)]
        learner._round = [pair(3), pair(4)]
        learner.end_round()
        assert learner.training_resources()["examples_trained"] == trained
        assert learner.memory()["pairs"] == 5
    finally:
        learner.close()


def test_own_examples_adds_the_trained_learners_round_examples_beside_the_teachers(
    tiny_model: Path, teacher_server: tuple[FakeTeacher, FakeModelServer, ProxyHandle]
) -> None:
    _, _, proxy = teacher_server
    a, b, c = ((1, 2),), ((2, 1),), ((3, 3),)
    for own, trained in ((False, 1), (True, 1 + 3)):  # two demonstrations bought and one answer right
        learner = qd(tiny_model, proxy, own_examples=own)
        try:
            learner.begin_round()
            learner._round = [Pair("grid", "i0", ({"role": "user", "content": "input"},), fenced([[1]]))]
            learner._taught = [Taught(((a, b), (c, c)), (a, b), 8)]
            learner.end_round()
            assert learner.training_resources()["examples_trained"] == trained
        finally:
            learner.close()


def test_a_negative_replay_or_an_unknown_teacher_option_is_refused(tiny_model: Path) -> None:
    with pytest.raises(ValueError, match="replay must be at least 0"):
        QDLearner("local/x@sha256:00", TEACHER, weights=str(tiny_model), replay=-1)
    name = resolve_model(str(tiny_model)).name
    with pytest.raises(ValueError, match="effrot"):
        QDLearner(name, TEACHER, weights=str(tiny_model), teacher_options={"effrot": "high"})


def test_the_teachers_own_cap_stops_the_run_cleanly_at_the_round(tiny_model: Path, tmp_path: Path) -> None:
    # 1e-4 USD a reply token: a cap of 0.002 USD pays for fewer reply tokens than a call needs.
    with teacher_rig(spend_cap=0.002, prices={TEACHER: Price(0.0, 100.0)}) as (_, fake, proxy):
        learner = qd(tiny_model, proxy)
        try:
            schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
            result = run(learner, schedule, tmp_path / "run")
            refused = learner.teacher_resources()["refused_calls"]
        finally:
            learner.close()
    assert not fake.chat_requests  # refused at the proxy: nothing reached the teacher
    assert result.records == [] and "spend cap" in str(result.summary["stopped"])
    assert refused >= 1


def test_a_game_state_is_labelled_with_the_teachers_action_as_the_student_writes_it(
    tiny_model: Path, teacher_server: tuple[FakeTeacher, FakeModelServer, ProxyHandle]
) -> None:
    script, fake, proxy = teacher_server
    frame = encode_frame([[5] * 64 for _ in range(64)])
    actions = ("ACTION1", "ACTION6")
    obs = GameObservation("game-a", frame, (frame,), actions, 0, 32, 0, 8, 0, 0, (), 0, 0, 0)
    learner = qd(tiny_model, proxy, demos=0, max_train_tokens=20_000)
    try:
        learner.begin_round()
        action = learner.act(obs)
        learner.observe(obs, action, GameFeedback((frame,), "won", "won", 1, 0, 0, True))
        log = learner.instance_log(0)
        learner.end_round()
        pairs, compute = list(learner._pairs), dict(learner.training_resources())
    finally:
        learner.close()
    assert len(fake.chat_requests) == 2  # the tiny student's two calls: two states met
    assert all("Offered actions: ACTION1, ACTION6" in state for state, _ in script.replies)
    expected = ["ACTION6 3 4" for _, reply in script.replies if reply.endswith("ACTION6 3 4")]
    assert [p.move for p in pairs] == expected and expected
    assert all(p.kind == "game" for p in pairs)
    assert all(list(p.messages[:2]) == game_messages(obs, []) for p in pairs)  # the student's own view
    assert log is not None and log["teacher"]["moves"] == expected
    assert compute["examples_trained"] == len(expected) and compute["rounds_trained"] == 1
