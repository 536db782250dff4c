"""A learner's JSON keywords read into a settings dataclass, each value checked against its field's type.

A learner's keywords come from the command line or a sweep's spec as JSON, so nothing types them
before they reach the learner. [settings_from][continual_arc_baselines.keywords.settings_from] builds
a frozen settings dataclass from them after checking every name against the dataclass's fields and
every value against the field's annotation (an integer is a number wherever a float is, a JSON list
a tuple), so that a user's mistake is one sentence naming the keyword, never a comparison of a string
with a number deep inside a learner. The dataclass's own ``__post_init__`` then checks the ranges.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import TypeVar

__all__ = ["KeywordError", "settings_from"]

S = TypeVar("S")


class KeywordError(ValueError):
    """A keyword that names no setting, or a value of another type than the setting's."""


def _kinds(hint: object) -> tuple[object, ...]:
    """The types a value of the annotation ``hint`` may have (the members of a union)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def _fits(value: object, hint: object) -> bool:
    """Whether ``value``, read from JSON, is of the annotation ``hint``."""
    kinds = _kinds(hint)
    if isinstance(value, bool):  # a bool is an int to isinstance, never to a setting
        return bool in kinds
    if isinstance(value, int) and float in kinds:
        return True
    for kind in kinds:
        origin = typing.get_origin(kind)
        if origin is tuple and isinstance(value, list | tuple):
            (item, *_) = typing.get_args(kind)
            if all(_fits(v, item) for v in value):
                return True
        elif isinstance(kind, type) and isinstance(value, kind):
            return True
    return False


def _shown(hint: object) -> str:
    return " or ".join("null" if k is type(None) else getattr(k, "__name__", str(k)) for k in _kinds(hint))


def settings_from(cls: type[S], given: Mapping[str, object], what: str, **fixed: object) -> S:
    """``cls`` built from ``given`` (a learner's JSON keywords) and ``fixed`` (the learner's own values).

    Args:
        cls: a dataclass of settings.
        given: the keywords the user gave, each checked against ``cls``'s fields.
        what: how the messages name them (``"teacher_options"``).
        **fixed: fields the learner sets itself, not checked (its own values are typed already).

    Raises:
        KeywordError: a keyword names no field of ``cls``, or its value is not of the field's type.
        ValueError: the dataclass refuses the values (a setting out of range).
    """
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls) if f.init and f.name not in fixed]
    for name, value in given.items():
        if name not in names:
            raise KeywordError(f"{what} has no setting {name!r}: give only {', '.join(names)}")
        if not _fits(value, hints[name]):
            raise KeywordError(f"{what} {name} must be {_shown(hints[name])}, got {value!r}")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in given.items()}
    build: Callable[..., S] = cls  # every value's type was checked above, against the class's hints
    return build(**values, **fixed)
