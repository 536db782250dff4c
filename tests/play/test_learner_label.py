"""A learner's short name: its class, then its arguments, sorted, as tables and submissions show it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.play.learner import learner_label


def test_the_class_then_each_argument_sorted() -> None:
    assert learner_label("pkg.mod:Library", {}) == "Library"
    assert learner_label("pkg.mod:Library", {"keep": "demos", "depth": 3}) == "Library depth=3 keep=demos"
    assert learner_label("pkg.mod:Library", {"tags": ["a", "b"]}, "library") == 'library tags=["a", "b"]'


KEYS = st.text(alphabet="abcxyz_", min_size=1, max_size=6)
VALUES = st.one_of(st.integers(-99, 99), st.text(alphabet="abc-", max_size=5), st.booleans())


@given(st.dictionaries(KEYS, VALUES, max_size=5))
def test_every_argument_is_shown_once_whatever_its_order(kwargs: dict[str, object]) -> None:
    label = learner_label("m:C", kwargs)
    shown = label.split(" ")[1:]
    assert shown == [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in sorted(kwargs.items())]
    assert learner_label("m:C", dict(reversed(list(kwargs.items())))) == label
