"""What a learner keeps, read from its class without building it, and held to what the built object says."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.env import Action, GiveUp, LearnerObservation
from continual_arc.learner import BaseLearner
from continual_arc.play.learner import (
    Keeps,
    LearnerSpecError,
    built_keeps,
    declared_keeps,
    load_learner,
)
from continual_arc.protocol.play import learner_keeps

HERE = __name__


class Plain(BaseLearner):
    """Keeps something, cannot save it."""

    def act(self, obs: LearnerObservation) -> Action:
        return GiveUp()


class Saver(Plain):
    """Saves and loads its state."""

    def save_state(self, directory: Path | str) -> None:
        Path(directory).mkdir(parents=True, exist_ok=True)

    def load_state(self, directory: Path | str) -> None:
        pass


class HalfSaver(Plain):
    """Saves but cannot load: not a learner that saves its state."""

    def save_state(self, directory: Path | str) -> None:
        pass


class BadSaver(Plain):
    """Its ``save_state`` takes no directory: not the member."""

    def save_state(self) -> None:  # type: ignore[override]
        pass

    def load_state(self, directory: Path | str) -> None:
        pass


class Forgetful(Plain):
    """Stateless by its class attribute."""

    stateless = True


class Switch(Plain):
    """Stateless when ``keep`` is ``nothing`` and it learns no prior, as its ``__init__`` decides too."""

    stateless_when = (("keep", "nothing"), ("prior", False))

    def __init__(self, keep: str = "programs", prior: bool = False, width: int = 1) -> None:
        self.stateless = keep == "nothing" and not prior
        self.width = width


class FixedSwitch(Switch):
    """A subclass fixing the argument in its own ``__init__``, and saying so on the class."""

    stateless_when = ()

    def __init__(self) -> None:
        super().__init__(keep="nothing")


class Undeclared(Switch):
    """A subclass fixing the argument without restating the declaration (its parent's names none of it)."""

    def __init__(self) -> None:
        super().__init__(keep="nothing")


class Liar(Plain):
    """Declares nothing, but its object says it is stateless."""

    def __init__(self) -> None:
        self.stateless = True


class Exploding(Saver):
    """A learner whose building fails: whatever reads its declaration must not build it."""

    stateless_when = (("keep", False),)

    def __init__(self, keep: bool = True) -> None:
        raise RuntimeError("built")


@pytest.mark.parametrize(
    ("cls", "expected"),
    [
        (Plain, Keeps(saves=False, stateless=False)),
        (Saver, Keeps(saves=True, stateless=False)),
        (HalfSaver, Keeps(saves=False, stateless=False)),
        (BadSaver, Keeps(saves=False, stateless=False)),
        (Forgetful, Keeps(saves=False, stateless=True)),
        (FixedSwitch, Keeps(saves=False, stateless=True)),
    ],
)
def test_the_class_says_what_its_object_keeps(cls: type, expected: Keeps) -> None:
    assert declared_keeps(cls, {}) == expected
    assert built_keeps(cls()) == expected


@given(
    keep=st.sampled_from(["programs", "demos", "nothing"]) | st.none(),
    prior=st.booleans() | st.none(),
    width=st.integers(1, 4),
)
def test_stateless_when_matches_the_built_object_for_any_arguments(
    keep: str | None, prior: bool | None, width: int
) -> None:
    kwargs: dict[str, object] = {"width": width}
    if keep is not None:
        kwargs["keep"] = keep
    if prior is not None:
        kwargs["prior"] = prior
    declared = declared_keeps(Switch, kwargs)
    # The rule restated here by hand, the defaults filling in: keep "programs", prior off.
    assert declared.stateless == ((keep or "programs") == "nothing" and not prior)
    assert declared == built_keeps(Switch(**kwargs))  # type: ignore[arg-type]


class Misdeclared(Plain):
    """Its own declaration names an argument it does not take: its author's mistake."""

    stateless_when = (("keep", False),)


def test_a_declaration_naming_no_argument_is_refused() -> None:
    with pytest.raises(LearnerSpecError, match=r"Misdeclared.stateless_when names no argument of it: keep"):
        declared_keeps(Misdeclared, {})


def test_an_inherited_declaration_that_does_not_fit_is_not_read_but_seen() -> None:
    # A subclass that fixed its parent's arguments itself: its parent's declaration does not speak
    # for it, so the protocol builds it once to see, and loading it checks nothing it cannot read.
    assert declared_keeps(Undeclared, {}) is None
    assert learner_keeps(LearnerRef(f"{HERE}:Undeclared")) == Keeps(saves=False, stateless=True)
    assert built_keeps(load_learner(f"{HERE}:Undeclared")).stateless


def test_arguments_the_class_does_not_take_are_refused_in_one_sentence() -> None:
    with pytest.raises(LearnerSpecError, match="Switch: got an unexpected keyword argument 'nope'"):
        declared_keeps(Switch, {"nope": 1})


def test_load_learner_refuses_a_class_whose_object_contradicts_it() -> None:
    with pytest.raises(
        LearnerSpecError, match="declares that it cannot save its state and is not stateless, but built"
    ):
        load_learner(f"{HERE}:Liar")
    assert built_keeps(load_learner(f"{HERE}:Switch", {"keep": "nothing"})).stateless


def test_the_protocol_reads_the_declaration_without_building() -> None:
    assert learner_keeps(LearnerRef(f"{HERE}:Exploding", {"keep": False})) == Keeps(
        saves=True, stateless=True
    )
    assert learner_keeps(LearnerRef(f"{HERE}:Exploding")) == Keeps(saves=True, stateless=False)
    with pytest.raises(RuntimeError, match="built"):  # building it raises
        load_learner(f"{HERE}:Exploding")


def make_forgetful() -> Forgetful:
    """A factory that is no class: it has no class to read, so it is built once to see."""
    return Forgetful()


def test_a_factory_is_built_once_to_see() -> None:
    assert learner_keeps(LearnerRef(f"{HERE}:make_forgetful")) == Keeps(saves=False, stateless=True)
