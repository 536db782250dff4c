"""A learner's JSON keywords read into settings: every name and type checked, in one sentence."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc_baselines.keywords import KeywordError, settings_from


@dataclass(frozen=True)
class Knobs:
    count: int = 1
    rate: float = 0.5
    label: str | None = None
    names: tuple[str, ...] = ()
    on: bool = False

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("count must be at least 0")


json_values = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5),
    st.lists(st.text(max_size=3), max_size=3), st.lists(st.integers(), min_size=1, max_size=3),
)  # fmt: skip
ACCEPTS = {  # what JSON each field takes, written out here rather than read from the annotations
    "count": lambda v: type(v) is int and v >= 0,
    "rate": lambda v: type(v) in (int, float),
    "label": lambda v: v is None or type(v) is str,
    "names": lambda v: type(v) is list and all(type(x) is str for x in v),
    "on": lambda v: type(v) is bool,
}


@given(st.sampled_from(sorted(ACCEPTS)), json_values)
def test_a_value_is_taken_exactly_when_it_is_of_the_fields_type(name: str, value: object) -> None:
    if ACCEPTS[name](value):
        built = settings_from(Knobs, {name: value}, "the knobs")
        assert getattr(built, name) == (tuple(value) if isinstance(value, list) else value)
    else:
        with pytest.raises(ValueError, match=f"(the knobs {name} must be)|(count must be at least 0)"):
            settings_from(Knobs, {name: value}, "the knobs")


def test_an_unknown_or_fixed_name_is_refused_naming_what_may_be_given() -> None:
    with pytest.raises(KeywordError, match="the knobs has no setting 'cuont': give only count, rate"):
        settings_from(Knobs, {"cuont": 3}, "the knobs")
    with pytest.raises(KeywordError, match="has no setting 'label'"):
        settings_from(Knobs, {"label": "x"}, "the knobs", label="mine")
    assert settings_from(Knobs, {"count": 2}, "the knobs", label="mine") == Knobs(2, label="mine")
    with pytest.raises(KeywordError, match="the knobs count must be int, got True"):
        settings_from(Knobs, {"count": True}, "the knobs")
