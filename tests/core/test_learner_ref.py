"""A learner named by import path and arguments: one frozen value from the command line to the child."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.core.records import JSONValue

_SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=4)
_KWARGS = st.dictionaries(
    st.text(min_size=1, max_size=6), _SCALARS | st.lists(_SCALARS, max_size=3), max_size=4
)


@given(kwargs=_KWARGS)
def test_it_crosses_a_pickle_and_the_wire_unchanged(kwargs: dict[str, JSONValue]) -> None:
    ref = LearnerRef("module:Class", kwargs)
    assert pickle.loads(pickle.dumps(ref)) == ref  # to a worker process
    assert LearnerRef.of(json.loads(json.dumps(ref.spec))) == ref  # to the sandboxed child, as JSON
    assert ref.spec == {"class": "module:Class", "kwargs": kwargs}  # what meta.json records
    assert hash(LearnerRef("module:Class", dict(kwargs))) == hash(ref)


def test_its_arguments_cannot_change_under_it() -> None:
    given = {"keep": "demos"}
    ref = LearnerRef("m:C", given)
    given["keep"] = "nothing"  # the caller's dict, changed afterwards
    assert ref.kwargs == {"keep": "demos"}
    with pytest.raises(TypeError):
        ref.kwargs["keep"] = "nothing"  # type: ignore[index]
    copy = ref.arguments
    copy["keep"] = "both"
    assert ref.arguments == {"keep": "demos"}  # a copy each time


def test_an_earlier_release_s_null_arguments_read_as_none() -> None:
    assert LearnerRef.of({"class": "m:C", "kwargs": None}) == LearnerRef("m:C")
    assert LearnerRef("m:C") != LearnerRef("m:C", {"a": 1})
    assert LearnerRef("m:C") != LearnerRef("m:D")
    assert LearnerRef("m:C", {"a": True}) != LearnerRef("m:C", {"a": 1})  # two arguments, as on disk
