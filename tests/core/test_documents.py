"""The documents' readers: what they refuse, in which sentence, and that what they accept is written again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.documents import (
    DocumentError,
    parse_document,
    parse_document_as_written,
    parse_records,
    parse_run_meta,
    parse_schedule_meta,
    parse_trajectory,
)
from continual_arc.core.errors import ContinualArcError
from continual_arc.core.records import End, EpisodeType, Phase, records_text, run_meta_text
from continual_arc.measure.summary import Summary

ROOT = Path(__file__).resolve().parents[2]
STORED = ROOT / "runs" / "arc1-library-seed0" / "stream"


def record(**changes: object) -> dict[str, object]:
    """A whole record, as the runner writes one, with ``changes`` made."""
    base: dict[str, object] = {
        "actions": [{"action": "request_demos", "refused": False}, {"action": "submit", "correct": True,
                                                                      "invalid": False}],
        "alias": "task-1", "budget_share": 0.125, "charge": 2, "demos_bought": 1, "demos_refused": 0,
        "end": "solved", "episode_type": "primary", "error": None, "exposure_index": 0, "gap": None,
        "instance_resources": None, "learner_time": 0.5, "max_cost": 16, "phase": "stream",
        "reset_before": False, "resources": {"searches": 3.0}, "round": 0, "seed": 7, "solved": True,
        "step": 0, "task_id": "abc", "user": 0, "user_exposure_index": 0, "user_gap": None,
        "wall_time": 0.75, "wrong_attempts": 0,
    }  # fmt: skip
    return {**base, **changes}


def jsonl(*records: dict[str, object]) -> str:
    return "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records)


def refusal(text: str) -> str:
    with pytest.raises(DocumentError) as caught:
        parse_records(text, "run/records.jsonl")
    return str(caught.value)


def test_a_record_whose_charge_is_a_string_is_refused_in_one_sentence_naming_file_line_and_field() -> None:
    said = refusal(jsonl(record(), record(charge="3")))
    assert said == "run/records.jsonl, line 2: field charge should be a valid integer, not '3'"
    assert issubclass(DocumentError, ContinualArcError)  # the command line prints it, no traceback


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"solved": "yes"}, "field solved should be a valid boolean, not 'yes'"),
        (
            {"phase": "warm-up"},
            "field phase should be 'stream', 'epilogue', 'held-out' or 'seen', not 'warm-up'",
        ),
        ({"end": "gave_up"}, "field end should be "),
        ({"budget_share": "0.5"}, "field budget_share should be a valid number, not '0.5'"),
        ({"step": 1.0}, "field step should be a valid integer, not 1.0"),
        ({"gap": True}, "field gap should be a valid integer, not True"),
        ({"resources": {"searches": "3"}}, "field resources.searches should be a valid number, not '3'"),
    ],
)
def test_a_field_of_the_wrong_type_is_named_with_its_value(changes: dict[str, object], sentence: str) -> None:
    said = refusal(jsonl(record(**changes)))
    assert said.startswith(f"run/records.jsonl, line 1: {sentence}")


def test_a_nested_field_is_named_by_its_path() -> None:
    actions = [{"action": "submit", "correct": "no"}]
    assert refusal(jsonl(record(actions=actions))) == (
        "run/records.jsonl, line 1: field actions[0].correct should be a valid boolean, not 'no'"
    )


def test_a_missing_field_and_several_faults_are_said_once() -> None:
    missing = record()
    del missing["end"]
    assert refusal(jsonl(missing)) == "run/records.jsonl, line 1: field end is missing"
    said = refusal(jsonl(record(charge="3", solved="no")))
    assert said.endswith(" (and 1 more)") and said.count("field ") == 1


def test_a_line_that_is_not_json_or_is_cut_short_is_refused_as_before() -> None:
    assert refusal(jsonl(record()) + "{oops\n") == (
        "run/records.jsonl, line 2: not valid JSON (Expecting property name enclosed in double quotes)"
    )
    cut = jsonl(record()) + '{"step": 1'
    assert refusal(cut).endswith("line 2: cut short (no final newline); a crash mid-write?")
    assert len(parse_records(cut, "run/records.jsonl", allow_partial_tail=True)) == 1


def test_a_record_keeps_the_fields_a_game_or_plug_in_adds_and_reads_its_vocabularies_as_enums() -> None:
    [read] = parse_records(jsonl(record(level_score=0.5, a_game_field={"x": [1, 2]})))
    assert read["a_game_field"] == {"x": [1, 2]}  # type: ignore[typeddict-item]
    assert read["phase"] is Phase.STREAM and read["end"] is End.SOLVED
    assert read.get("episode_type") is EpisodeType.PRIMARY


def test_a_closed_document_refuses_a_field_it_does_not_declare() -> None:
    meta = json.loads((STORED / "meta.json").read_text())
    meta["learner"]["module"] = "x"
    with pytest.raises(DocumentError) as caught:
        parse_run_meta(json.dumps(meta), "run/meta.json")
    assert str(caught.value) == "run/meta.json: field learner.module is not one this document holds"
    schedule = {**meta["schedule"], "seed": "1"}
    with pytest.raises(DocumentError, match=r"^its meta: field seed should be a valid integer, not '1'$"):
        parse_schedule_meta(schedule, "its meta")


def test_a_trajectory_of_the_wrong_type_is_refused() -> None:
    slot = {
        key: record()[key]
        for key in (
            "step",
            "round",
            "user",
            "phase",
            "task_id",
            "seed",
            "reset_before",
            "exposure_index",
            "gap",
            "user_exposure_index",
            "user_gap",
            "alias",
        )
    }
    trajectory = {
        **slot,
        "episode_type": "primary",
        "events": [],
        "result": {},
        "learner_log": None,
        "error": None,
    }
    assert parse_trajectory(json.dumps(trajectory), "i/0.json")["phase"] is Phase.STREAM
    with pytest.raises(DocumentError, match=r"^i/0\.json: field events should be a valid array, not 3$"):
        parse_trajectory(json.dumps({**trajectory, "events": 3}), "i/0.json")


def test_a_stored_run_reads_and_is_written_again_byte_for_byte() -> None:
    text = (STORED / "records.jsonl").read_text()
    assert records_text(parse_records(text)) == text
    meta = (STORED / "meta.json").read_text()
    assert run_meta_text(parse_run_meta(meta)) == meta


_INTEGERS = ("step", "round", "user", "seed", "charge", "max_cost", "demos_bought", "wrong_attempts")


@settings(max_examples=60, deadline=None)
@given(
    charge=st.integers(0, 16),
    share=st.floats(0, 1, allow_nan=False),
    extra=st.dictionaries(
        st.text("xyz_", min_size=3, max_size=6), st.integers() | st.text(max_size=4), max_size=3
    ),
    field=st.sampled_from(_INTEGERS),
)
def test_any_record_is_written_back_as_read_and_any_integer_given_as_text_is_refused(
    charge: int, share: float, extra: dict[str, object], field: str
) -> None:
    text = jsonl(record(charge=charge, budget_share=share, **extra))
    assert records_text(parse_records(text)) == text
    wrong = record(charge=charge, budget_share=share, **extra)
    wrong[field] = str(wrong[field])
    assert refusal(jsonl(wrong)) == (
        f"run/records.jsonl, line 1: field {field} should be a valid integer, not {wrong[field]!r}"
    )


def test_a_summary_read_as_written_keeps_the_files_order_and_is_still_validated() -> None:
    text = (STORED / "summary.json").read_text()
    read = parse_document_as_written(Summary, text, "summary.json")
    assert json.dumps(read, indent=1) + "\n" == text  # the file's own order, not the declaration's
    assert list(parse_document(Summary, text, "summary.json")) != list(read)
    wrong = json.loads(text) | {"instances": "200"}
    with pytest.raises(DocumentError, match=r"^summary\.json: field instances should be a valid integer"):
        parse_document_as_written(Summary, json.dumps(wrong), "summary.json")
