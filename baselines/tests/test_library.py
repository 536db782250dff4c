from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from continual_arc.core.files import read_json
from continual_arc.core.files import read_jsonl as read_json_lines
from continual_arc.core.grids import Grid
from continual_arc.env import InstanceEnv, RequestDemos, Submit
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import apply_rule, toy_rule
from continual_arc.tracks.registry import get_config, get_source
from continual_arc_baselines.dsl import parse
from continual_arc_baselines.library import (
    LibraryMemory,
    ProgramLibraryLearner,
    WriteRequest,
    WriterResult,
    WrittenProgram,
    group_by_prediction,
)

TOY = get_config("toy-smoke")
RULES = [(d, c) for d in range(8) for c in range(8)]


class ToyWriter:
    """Writes toy rules ``d<d>c<c>`` that fit every demonstration; simpler rules first."""

    name = "toy"

    def __init__(self) -> None:
        self.calls: list[WriteRequest] = []

    def write(self, request: WriteRequest) -> WriterResult:
        self.calls.append(request)
        fitting = [r for r in RULES if all(apply_rule(a, r) == b for a, b in request.demos)]
        programs = tuple(
            WrittenProgram(f"d{d}c{c}", apply_rule(request.test_input, (d, c)), float(d + c))
            for d, c in fitting
        )
        return WriterResult(programs, len(RULES))

    def run(self, text: str, grid: Grid, instance: str) -> Grid | None:
        d, c = text.removeprefix("d").split("c")
        return apply_rule(grid, (int(d), int(c)))

    def resources(self) -> dict[str, float]:
        return {"searches": float(len(self.calls))}


def learner(**kwargs: object) -> ProgramLibraryLearner:
    return ProgramLibraryLearner(writer=ToyWriter(), **kwargs)  # type: ignore[arg-type]


def test_the_library_keeps_a_tested_program_and_runs_it_free_on_return(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, epilogue=False)
    records = run(learner(), schedule, tmp_path / "run").records
    assert all(r["solved"] for r in records)
    for r in records:
        if r["exposure_index"] == 0:
            assert r["demos_bought"] >= 3  # first meeting: bought demonstrations, then wrote programs
        else:
            assert (r["charge"], r["demos_bought"], r["actions"][0]["action"]) == (0, 0, "submit")
    memory = read_json(tmp_path / "run" / "memory.json")
    assert sorted(memory["programs"].values()) == sorted(
        f"d{d}c{c}"
        for d, c in (
            tuple(map(int, t.removeprefix("toy-d").split("-c"))) for t in {r["task_id"] for r in records}
        )
    )
    trajectory = read_json(tmp_path / "run" / "i" / "0.json")
    assert trajectory["learner_log"]["solved_by"] is not None


def test_its_reset_keeps_nothing(tmp_path: Path) -> None:
    reset = learner(keep="nothing")
    assert reset.stateless
    records = run(reset, build_schedule(TOY, 0, epilogue=False), tmp_path / "run").records
    assert all(r["demos_bought"] >= 3 for r in records)
    assert reset.library == LibraryMemory()


def test_the_demo_cache_shows_kept_demonstrations_again(tmp_path: Path) -> None:
    records = run(learner(keep="demos"), build_schedule(TOY, 0, epilogue=False), tmp_path / "run").records
    for r in records:
        if r["exposure_index"] == 0:
            assert r["demos_bought"] == 3
        else:
            assert r["demos_bought"] == 0  # the three kept pairs are shown again, for free
    assert {len(v) for v in read_json(tmp_path / "run" / "memory.json")["demos"].values()} <= set(
        range(3, 17)
    )


def test_state_round_trips_and_each_test_starts_from_it(tmp_path: Path) -> None:
    stream_learner = learner()
    run(stream_learner, build_schedule(TOY, 0, epilogue=False), tmp_path / "stream")
    state = tmp_path / "stream" / "state" / "round-000008"
    fresh = learner()
    fresh.load_state(state)
    assert fresh.library == stream_learner.library
    fresh.save_state(tmp_path)
    assert read_json(tmp_path / "library.json")["programs"] == stream_learner.library.programs
    (tmp_path / "seen").mkdir()
    shutil.copy(tmp_path / "stream" / "alias-salt", tmp_path / "seen")  # the names it learnt them by
    seen = run(fresh, test_schedule(TOY, 0, "seen"), tmp_path / "seen").records
    assert [r["charge"] for r in seen] == [0] * len(seen)  # every kept program answers at once


def _env(task: str = "toy-d3-c2") -> InstanceEnv:
    return InstanceEnv(get_source("toy/generative").instance(task, 1))


def test_disagreeing_programs_buy_one_more_demonstration() -> None:
    lib = learner(initial_demos=1)
    env = _env()
    actions = []
    while not env.done:
        obs = env.view("t", 0, 0, 0)
        action = lib.act(obs)
        actions.append(type(action).__name__)
        lib.observe(obs, action, env.step(action))
    assert actions[0] == "RequestDemos"
    groups_after_one = len(group_by_prediction(lib.writer.write(lib.writer.calls[0]).programs, []))  # type: ignore[attr-defined]
    if groups_after_one > 1:
        assert actions[1] == "RequestDemos"
    assert env.result().solved


def test_a_wrong_kept_program_is_dropped_and_replaced() -> None:
    lib = learner()
    lib.library.programs["t"] = "d0c1"  # not this task's rule
    env = _env()
    first = lib.act(env.view("t", 0, 0, 0))
    assert isinstance(first, Submit)
    lib.observe(env.view("t", 0, 0, 0), first, env.step(first))
    while not env.done:
        obs = env.view("t", 0, 0, 0)
        action = lib.act(obs)
        lib.observe(obs, action, env.step(action))
    assert env.result().solved and env.result().wrong_attempts >= 1
    lib.end_round()
    assert lib.library.programs["t"] == "d3c2"


class EmptyWriter(ToyWriter):
    def write(self, request: WriteRequest) -> WriterResult:
        return WriterResult((), 0)


def test_no_program_means_give_up_after_the_initial_demonstrations() -> None:
    lib = ProgramLibraryLearner(writer=EmptyWriter())
    env = _env()
    while not env.done:
        obs = env.view("t", 0, 0, 0)
        action = lib.act(obs)
        lib.observe(obs, action, env.step(action))
    result = env.result()
    assert (result.end, result.demos_bought) == ("gave up", 3)


class TwoGuesses(ToyWriter):
    """Two disagreeing programs, the right one second: with no demonstration left, both are tried."""

    def write(self, request: WriteRequest) -> WriterResult:
        wrong = tuple(tuple((x + 1) % 10 for x in row) for row in request.test_input)
        right = apply_rule(request.test_input, toy_rule("toyfix-00"))
        return WriterResult((WrittenProgram("w", wrong, 1.0), WrittenProgram("right", right, 2.0)), 2)


def test_with_no_demonstration_left_the_remaining_predictions_are_tried_in_order() -> None:
    lib = ProgramLibraryLearner(writer=TwoGuesses())
    source = get_source("toy/fixed")
    env = InstanceEnv(source.instance("toyfix-00", 0))  # two train pairs: the cap is 2
    kinds = []
    while not env.done:
        obs = env.view("t", 0, 0, 0)
        action = lib.act(obs)
        kinds.append({RequestDemos: "demo", Submit: "submit"}.get(type(action), "give up"))
        lib.observe(obs, action, env.step(action))
    assert kinds == ["demo", "demo", "submit", "submit"]
    assert env.result().solved and env.result().wrong_attempts == 1


def test_what_a_round_teaches_waits_for_end_round(tmp_path: Path) -> None:
    lib = learner()
    run(lib, build_schedule(with_users(TOY, 3), 1, epilogue=False, rounds=1), tmp_path / "run")
    assert len(lib.library.programs) == 3  # folded in at the end of the round


def test_keep_is_checked() -> None:
    with pytest.raises(ValueError, match="keep must be one of"):
        ProgramLibraryLearner(keep="everything", writer=ToyWriter())


# -- with the model-free DSL writer, on real Re-ARC tasks -------------------------------------------

SMOKE = get_config("arc1-smoke")


@pytest.fixture(scope="module")
def dsl_stream(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ProgramLibraryLearner]:
    out = tmp_path_factory.mktemp("dsl") / "stream"
    library = ProgramLibraryLearner()
    run(library, build_schedule(SMOKE, 0, epilogue=False), out)
    return out, library


def test_the_dsl_library_keeps_programs_that_answer_returns_for_free(
    dsl_stream: tuple[Path, ProgramLibraryLearner],
) -> None:
    out, library = dsl_stream
    records = read_json_lines(out / "records.jsonl")
    free = [r for r in records if r["exposure_index"] > 0 and r["solved"] and r["charge"] == 0]
    assert free and all(r["demos_bought"] == 0 for r in free)  # the kept program answered alone
    assert len(library.library.programs) == 2  # the two tasks it solved; the third is beyond the DSL
    for text in library.library.programs.values():
        assert parse(text).text == text  # kept as readable DSL text, and it parses back
    trajectory = read_json(out / "i" / f"{free[0]['step']}.json")
    assert trajectory["learner_log"]["events"][1]["kept_program"] in library.library.programs.values()


def test_the_dsl_librarys_reset_pays_for_every_instance(tmp_path: Path) -> None:
    records = run(
        ProgramLibraryLearner(), build_schedule(SMOKE, 0, epilogue=False, reset_each=True), tmp_path
    ).records
    assert all(r["charge"] > 0 for r in records)  # wiped before each instance, it always buys demonstrations


def test_dsl_library_state_round_trips(
    dsl_stream: tuple[Path, ProgramLibraryLearner], tmp_path: Path
) -> None:
    out, library = dsl_stream
    restored = ProgramLibraryLearner()
    restored.load_state(out / "state" / "round-000008")
    assert restored.library == library.library
    restored.save_state(tmp_path)
    assert read_json(tmp_path / "library.json")["programs"] == library.library.programs


def test_the_search_cache_changes_no_result(tmp_path: Path) -> None:
    from continual_arc.data import rearc
    from continual_arc_baselines.library import DslWriter

    test = rearc.instance("bb43febb", 5)
    request = WriteRequest(rearc.demonstrations("bb43febb", 5, 3, test[0]), test[0], "x")
    plain = DslWriter().write(request)
    cached = DslWriter(cache_dir=tmp_path)
    first, second = cached.write(request), cached.write(request)
    assert first == second == plain and cached.cache_hits == 1
    assert any(p.prediction == test[1] for p in plain.programs)
