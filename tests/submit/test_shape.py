"""Malformed runs are problem lines, never tracebacks: records and meta mutated at random."""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.play.runner import run
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.check_run import check_run
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config

pytestmark = pytest.mark.tampered  # these tests edit run files on purpose

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**16) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
"""Any JSON value, small."""

_RECORD_KEYS = ["step", "round", "user", "phase", "task_id", "seed", "actions", "solved", "end", "charge",
                "max_cost", "budget_share", "wrong_attempts", "demos_bought", "demos_refused", "episode_type",
                "addon_index", "exposure_index", "gap", "alias", "plugins", "round_addons", "error",
                "reset_before", "user_exposure_index"]  # fmt: skip
_META_KEYS = ["schedule", "learner", "protocol", "plugins", "versions", "learner_fingerprint", "alias_style",
              "instance_time_limit", "format"]  # fmt: skip
_SCHEDULE_KEYS = ["config", "configuration", "track", "seed", "users", "order", "epilogue", "reset_each",
                  "test", "width", "rounds_cut", "sources", "protocol"]  # fmt: skip
_DELETE = object()


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An honest protocol of the toy rule learner on toy-smoke."""
    root = tmp_path_factory.mktemp("honest") / "toy"
    spec, options = (
        ProtocolSpec.named("continual_arc.testing:ToyRuleLearner", "toy-smoke"),
        ProtocolOptions(out=root, jobs=1, resamples=50),
    )
    play_protocol(spec, options)
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/l@abc", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)
    return root


def _value() -> st.SearchStrategy[Any]:
    return st.one_of(st.just(_DELETE), _JSON)


_MUTATION = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 20), st.sampled_from(_RECORD_KEYS), _value()),
    st.tuples(st.just("whole record"), st.integers(0, 20), st.just(""), _JSON),
    st.tuples(
        st.just("action"), st.integers(0, 20), st.sampled_from(["action", "correct", "ended"]), _value()
    ),
    st.tuples(st.just("meta"), st.just(0), st.sampled_from(_META_KEYS), _value()),
    st.tuples(st.just("schedule"), st.just(0), st.sampled_from(_SCHEDULE_KEYS), _value()),
    st.tuples(st.just("learner"), st.just(0), st.sampled_from(["class", "kwargs"]), _value()),
    st.tuples(st.just("whole meta"), st.just(0), st.just(""), _JSON),
)


def _put(target: Any, key: str, value: Any) -> None:
    if not isinstance(target, dict):
        return
    if value is _DELETE:
        target.pop(key, None)
    else:
        target[key] = value


def _mutate(records: list[Any], meta: Any, mutation: tuple[str, int, str, Any]) -> Any:
    """Apply one mutation in place (the meta is returned: a whole meta may be replaced)."""
    kind, index, key, value = mutation
    at = index % len(records)
    if kind == "record":
        _put(records[at], key, value)
    elif kind == "whole record":
        records[at] = value
    elif kind == "action" and isinstance(records[at], dict):
        actions = records[at].get("actions")
        if isinstance(actions, list) and actions:
            _put(actions[0], key, value)
    elif kind == "meta":
        _put(meta, key, value)
    elif kind == "schedule" and isinstance(meta, dict):
        _put(meta.get("schedule"), key, value)
    elif kind == "learner" and isinstance(meta, dict):
        _put(meta.get("learner"), key, value)
    elif kind == "whole meta":
        return value
    return meta


def _write(run: Path, records: list[Any], meta: Any) -> None:
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (run / "meta.json").write_text(json.dumps(meta))


def _mutated(honest: Path, where: Path, mutations: list[tuple[str, int, str, Any]], run: str) -> Path:
    root = where / "result"
    shutil.copytree(honest, root)
    records = [json.loads(line) for line in (root / run / "records.jsonl").read_text().splitlines()]
    meta = read_json(root / run / "meta.json")
    for mutation in mutations:
        meta = _mutate(records, meta, mutation)
    _write(root / run, records, meta)
    return root


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(_MUTATION, min_size=1, max_size=3))
def test_a_mutated_run_is_problem_lines(honest: Path, mutations: list[tuple[str, int, str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as where:
        root = _mutated(honest, Path(where), mutations, "stream")
        _, problems = check_run(root / "stream")  # never raises
        assert all(isinstance(p, str) and "\n" not in p for p in problems)
        # the shape check caught it before any check met what it could not read
        assert not [p for p in problems if "could not be checked" in p], problems


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(_MUTATION, min_size=1, max_size=3), run=st.sampled_from(["stream", "seen-reset"]))
def test_a_submission_with_a_mutated_run_is_problem_lines(
    honest: Path, mutations: list[tuple[str, int, str, Any]], run: str
) -> None:
    with tempfile.TemporaryDirectory() as where:
        root = _mutated(honest, Path(where), mutations, run)
        result = check_submission(root, regenerate=False, resamples=20, allow_ablation=True)
        assert all(isinstance(p, str) for p in result.problems)


def test_the_honest_run_has_no_problem(honest: Path) -> None:
    assert check_run(honest / "stream")[1] == []
    assert copy.deepcopy(check_submission(honest, resamples=20, allow_ablation=True).problems) == []


@pytest.mark.parametrize("max_cost", [0, -16, 0.0])
def test_a_budget_that_is_not_positive_is_a_shape_problem(honest: Path, max_cost: float) -> None:
    # Found by the property above: a zero budget reached the summary's check, which divides by it.
    with tempfile.TemporaryDirectory() as where:
        root = _mutated(honest, Path(where), [("record", 0, "max_cost", max_cost)], "stream")
        _, problems = check_run(root / "stream")
        assert any(f"max_cost is {max_cost!r}, not a positive number" in p for p in problems), problems
        assert not [p for p in problems if "could not be checked" in p], problems


@pytest.mark.parametrize("key", ["exposure_index", "gap"])
def test_a_slot_without_its_place_in_the_stream_is_a_shape_problem(honest: Path, key: str) -> None:
    # Found by the property above: the summary's check read the key and raised.
    with tempfile.TemporaryDirectory() as where:
        root = _mutated(honest, Path(where), [("record", 0, key, _DELETE)], "stream")
        _, problems = check_run(root / "stream")
        assert any(f"{key} is missing in a slot's record" in p for p in problems), problems
        assert not [p for p in problems if "could not be checked" in p], problems


class _Faulty(ToyRuleLearner):
    """The toy rule learner, which raises in its second action of every third instance."""

    def __init__(self) -> None:
        super().__init__()
        self.acts = 0

    def act(self, obs: Any) -> Any:
        self.acts += 1
        if self.acts % 6 == 2:
            raise RuntimeError("the learner's process went over its memory limit (a stand-in)")
        return super().act(obs)


def test_a_run_whose_learner_faulted_has_no_shape_problem(tmp_path: Path) -> None:
    # A fault's record holds the runner's error object and an unanswered last action; the replay
    # reads both, so their shape is no problem (a limit's hit under verify is such a fault).
    result = run(_Faulty(), build_schedule(with_users(get_config("toy-smoke"), 1), 3), tmp_path / "run")
    faulted = [r for r in result.records if r["error"]]
    assert faulted and all(isinstance(r["error"], dict) for r in faulted)
    assert any(r["actions"][-1]["action"] is None for r in faulted)
    assert check_run(tmp_path / "run")[1] == []
