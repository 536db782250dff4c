"""A dataclass's JSON document is its fields, and reads back through the class itself: one declaration."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import pkgutil
from enum import Enum
from pathlib import Path
from typing import Any

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import continual_arc
from continual_arc.core.jsonable import as_json, fields_json
from continual_arc.measure.bootstrap import Estimate
from continual_arc.measure.reset_flags import ResetFlags
from continual_arc.submit.leaderboard.board import Leaderboard
from continual_arc.submit.leaderboard.rows import Public, Row, Table


def _documented_by_fields() -> list[type]:
    """Every dataclass of the package whose ``to_json`` returns ``fields_json`` of itself."""
    found = []
    for info in pkgutil.walk_packages(continual_arc.__path__, "continual_arc."):
        if info.name.endswith("__main__") or info.name.startswith("continual_arc.cli"):
            continue  # the command line builds its parser on import; it declares no document
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue  # an optional extra that is not installed here (arc3, view, ...)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls):
                method = vars(cls).get("to_json")
                if method is not None and "fields_json(self)" in inspect.getsource(method):
                    found.append(cls)
    return found


DOCUMENTED = _documented_by_fields()


def test_the_classes_documented_by_their_fields_are_found() -> None:
    names = {cls.__name__ for cls in DOCUMENTED}
    assert {
        "Estimate",
        "TestComparison",
        "LearnedResult",
        "BudgetEstimate",
        "GaveUp",
        "Row",
        "Refusal",
    } <= names


# ResetFlags adds the lines of the flags that fire, which a drawn instance (flagged, with no values)
# cannot format; its entries (GaveUp, FirstSightGap, BelowFloor) are each read back below.
READ_BACK = [cls for cls in DOCUMENTED if cls is not ResetFlags]


# The leaderboard's documents nest tables of rows: drawing them takes seconds, too long for the fast loop.
_HEAVY = {"Leaderboard", "Table", "Row"}


def _few(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.lists(strategy, max_size=2).map(tuple)


def _drawn(cls: type) -> st.SearchStrategy[Any]:
    """``cls`` drawn from its type, with at most two of each nested document.

    A row's seeds are rows with no seeds of their own; a table has at most two rows, the
    leaderboard two tables of each kind. Drawn freely, the nested rows and tables overrun
    Hypothesis's buffer and are drawn again, seconds to tens of seconds for a handful of examples;
    two of each still nest every kind of document.
    """
    public = _few(st.from_type(Public))
    seed_row = st.builds(Row, public=public, beside=_few(st.text()), by_seed=st.just(()))
    row = st.builds(Row, public=public, beside=_few(st.text()), by_seed=_few(seed_row))
    if cls is Row:
        return row
    table = st.builds(Table, rows=_few(row))
    if cls is Table:
        return table
    if cls is Leaderboard:
        return st.builds(Leaderboard, tables=_few(table), reported=_few(table), experiments=_few(table))
    return st.from_type(cls)


@pytest.mark.parametrize(
    "cls",
    [pytest.param(c, marks=pytest.mark.heavy) if c.__name__ in _HEAVY else c for c in READ_BACK],
    ids=lambda cls: f"{cls.__module__}.{cls.__name__}",
)
def test_each_document_reads_back_through_its_own_class(cls: type) -> None:
    """No second declaration of the document: the class's validator reads what ``to_json`` wrote."""
    adapter = pydantic.TypeAdapter(cls)

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_drawn(cls))
    def read_back(obj: Any) -> None:
        written = json.dumps(obj.to_json(), sort_keys=True)
        again = adapter.validate_json(written, strict=True)
        assert json.dumps(again.to_json(), sort_keys=True) == written

    read_back()


class Colour(Enum):
    RED = "red"


@dataclasses.dataclass(frozen=True)
class Inner:
    path: Path
    colour: Colour


@dataclasses.dataclass(frozen=True)
class Outer:
    inner: Inner
    estimates: tuple[Estimate, ...]
    by_name: dict[str, int]


def test_nested_values_become_json() -> None:
    outer = Outer(Inner(Path("a/b"), Colour.RED), (Estimate(0.5, 0.25, 0.75),), {"x": 1})
    assert fields_json(outer) == {
        "inner": {"path": "a/b", "colour": "red"},
        "estimates": [{"value": 0.5, "low": 0.25, "high": 0.75, "note": None}],
        "by_name": {"x": 1},
    }


def test_what_json_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError, match="set has no JSON form"):
        as_json({1, 2})


FINITE = st.floats(allow_nan=False, allow_infinity=False)


@given(st.one_of(st.none(), FINITE), st.one_of(st.none(), FINITE), st.one_of(st.none(), st.text(max_size=5)))
def test_an_estimate_is_its_four_fields(value: float | None, low: float | None, note: str | None) -> None:
    assert Estimate(value, low, None, note).to_json() == {
        "value": value,
        "low": low,
        "high": None,
        "note": note,
    }
