"""A learner's short name: its class, then its arguments, sorted, as tables and submissions show it."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.play.learner import learner_label, learner_slug


def test_the_class_then_each_argument_sorted() -> None:
    assert learner_label("pkg.mod:Library", {}) == "Library"
    assert learner_label("pkg.mod:Library", {"keep": "demos", "depth": 3}) == "Library depth=3 keep=demos"
    assert learner_label("pkg.mod:Library", {"tags": ["a", "b"]}, "library") == 'library tags=["a", "b"]'


KEYS = st.text(alphabet="abcxyz_", min_size=1, max_size=6)  # no "=" or space: a word splits back
VALUES = st.one_of(st.integers(-99, 99), st.text(alphabet="abc-", max_size=5), st.booleans())


@given(st.dictionaries(KEYS, VALUES, max_size=5))
def test_every_argument_is_shown_once_whatever_its_order(kwargs: dict[str, object]) -> None:
    label = learner_label("m:C", kwargs)
    name, *words = label.split(" ")
    # read back: the class, then each argument once, by name in order, its value recoverable
    pairs = [word.split("=", 1) for word in words]
    assert name == "C" and [key for key, _ in pairs] == sorted(kwargs)
    for key, text in pairs:
        assert text == kwargs[key] if isinstance(kwargs[key], str) else json.loads(text) == kwargs[key]
    assert learner_label("m:C", dict(reversed(list(kwargs.items())))) == label


def test_a_folder_name_tells_variants_apart_and_stays_a_name() -> None:
    assert learner_slug("pkg.mod:Library", {}) == "Library"
    assert learner_slug("pkg.mod:Library", {"keep": "demos"}) == "Library-keep=demos"
    assert learner_slug("m:L", {"path": "/a b/c"}) == "L-path=_a-b_c"
    long = {"notes": "x" * 60}
    assert (
        learner_slug("m:L", long) == "L-" + hashlib.sha256(b'{"notes": "' + b"x" * 60 + b'"}').hexdigest()[:8]
    )
