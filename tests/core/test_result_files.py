"""``submission.json`` and ``verification.json`` read through their declarations: a bad field, a sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from continual_arc.core.documents import DocumentError
from continual_arc.core.result_files import read_submission, read_verification

SUBMISSION = {
    "name": "ToyRuleLearner on toy-smoke, seed 0",
    "learner": "continual_arc.testing:ToyRuleLearner",
    "learner_kwargs": {},
    "student": None,
    "effort": None,
    "teacher": None,
    "code": None,
    "contact": None,
    "stream": "stream",
    "reset": "stream-reset",
    "tests": {"seen": {"run": "seen", "reset": "seen-reset", "bare": None, "floor": None}},
    "notes": "written by continual-arc protocol",
}
VERIFICATION = {
    "mode": "reproduced",
    "seed": 7,
    "learner": "continual_arc.testing:ToyRuleLearner",
    "config": "toy-smoke",
    "about": {"track": "toy"},
}


def _write(tmp_path: Path, name: str, value: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value))
    return path


def test_a_submission_reads_as_written_and_keeps_a_field_of_its_own(tmp_path: Path) -> None:
    path = _write(tmp_path, "submission.json", {**SUBMISSION, "mine": [1, 2]})
    assert read_submission(path) == {**SUBMISSION, "mine": [1, 2]}


def test_a_draft_submission_may_leave_fields_out(tmp_path: Path) -> None:
    assert read_submission(_write(tmp_path, "submission.json", {"stream": "s"})) == {"stream": "s"}


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("student", 3, "field student should be a valid string, not 3"),
        ("learner_kwargs", ["keep"], "field learner_kwargs should be a valid dictionary, not ['keep']"),
        ("tests", {"seen": {"run": 1, "reset": "r"}}, "field tests.seen.run should be a valid string, not 1"),
    ],
)
def test_a_submission_with_a_wrong_typed_field_is_refused_by_name(
    tmp_path: Path, field: str, value: object, said: str
) -> None:
    path = _write(tmp_path, "submission.json", {**SUBMISSION, field: value})
    with pytest.raises(DocumentError) as caught:
        read_submission(path)
    assert str(caught.value) == f"{path}: {said}"


def test_a_verification_reads_as_written(tmp_path: Path) -> None:
    assert read_verification(_write(tmp_path, "verification.json", VERIFICATION)) == VERIFICATION


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"seed": "7"}, "field seed should be a valid integer, not '7'"),
        ({"mode": None}, "field mode should be a valid string, not None"),
        ({"isolation": ["stream"]}, "field isolation should be a valid dictionary, not ['stream']"),
    ],
)
def test_a_verification_with_a_wrong_typed_field_is_refused_by_name(
    tmp_path: Path, change: dict[str, object], said: str
) -> None:
    path = _write(tmp_path, "verification.json", {**VERIFICATION, **change})
    with pytest.raises(DocumentError) as caught:
        read_verification(path)
    assert str(caught.value) == f"{path}: {said}"


def test_a_verification_without_its_seed_says_so(tmp_path: Path) -> None:
    marker = {key: value for key, value in VERIFICATION.items() if key != "seed"}
    path = _write(tmp_path, "verification.json", marker)
    with pytest.raises(DocumentError, match=r"verification\.json: field seed is missing$"):
        read_verification(path)


ROOT = Path(__file__).resolve().parents[2]
STORED = sorted((ROOT / "runs").rglob("submission.json")) + sorted((ROOT / "runs").rglob("verification.json"))


@pytest.mark.parametrize("path", STORED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_stored_result_file_reads_as_it_is(path: Path) -> None:
    read = read_submission if path.name == "submission.json" else read_verification
    assert read(path) == json.loads(path.read_text())
