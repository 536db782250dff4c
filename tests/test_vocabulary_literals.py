"""The closed vocabularies are spelled by their enumerations only: phases, plays, roles, ends.

``scripts/contract_figures.py`` counts the string constants of ``src/`` that spell a phase, a play
or an end; outside docstrings, the enumerations' bodies and the keys of typed documents, there are
none. The counter itself is checked on a small tree written here, whose answer is known.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from continual_arc.core.config import TESTS
from continual_arc.core.records import Phase, Play
from continual_arc.protocol.plan import PLAN
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.tracks.track import PHASE_SOURCES, ROLES, Role

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from contract_figures import vocabulary_literals  # noqa: E402  (a script of scripts/)

_SAMPLE = '''
    """A module: "stream" in a docstring is prose."""
    from enum import StrEnum
    from typing import TypedDict


    class Kind(StrEnum):
        STREAM = "stream"


    class Result(TypedDict):
        solved: bool


    def read(result: Result, table: dict[str, int]) -> object:
        """Nothing here counts: "seen" in a docstring."""
        return result["solved"], result.get("solved"), "solved" in result, table["seen"]


    def values() -> tuple[str, ...]:
        return ("seen", "held-out-reset", "action cap")
'''


def test_no_phase_play_or_end_is_spelled_outside_its_enumeration() -> None:
    found = vocabulary_literals(ROOT)
    assert found["phase/play values"] == []
    assert found["end values"] == []


def test_the_counter_tells_a_typed_documents_key_from_a_value(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "sample.py").write_text(textwrap.dedent(_SAMPLE))
    found = vocabulary_literals(tmp_path)
    # table["seen"] indexes a plain dict: "seen" is no field of a TypedDict, so it is a value.
    assert sorted(found["phase/play values"]) == [
        "src/sample.py:17: seen",
        "src/sample.py:21: held-out-reset",
        "src/sample.py:21: seen",
    ]
    assert found["end values"] == ["src/sample.py:21: action cap"]
    assert found["end keys"] == ["src/sample.py:17: solved"] * 3
    assert found["phase/play keys"] == []


def test_the_plays_are_the_stream_and_each_test_with_their_resets() -> None:
    names = {"stream", "stream-reset", "held-out", "held-out-reset", "seen", "seen-reset"}
    assert {str(p) for p in Play} == names
    assert set(PLAN.names) == set(Play) and set(PROTOCOL_PLAYS) == names
    assert Play.of(None) == "stream" and Play.of(None, reset=True) == "stream-reset"
    assert [Play.of(t) for t in TESTS] == ["held-out", "seen"]
    assert [Play.of(t, reset=True) for t in TESTS] == ["held-out-reset", "seen-reset"]
    assert all(PLAN[Play.of(p.test, reset=p.reset)] == p for p in PLAN)


def test_each_phase_is_served_by_one_of_the_two_roles() -> None:
    assert ROLES == ("stream", "held-out") == (Role.STREAM, Role.HELD_OUT)
    assert dict(PHASE_SOURCES) == {
        "stream": "stream",
        "seen": "stream",
        "epilogue": "held-out",
        "held-out": "held-out",
    }
    assert set(PHASE_SOURCES) == set(Phase)
