"""A frozen dataclass as its JSON document, field for field.

A measure's result is declared once, as a frozen dataclass: code reads its attributes, and its JSON
document is [`fields_json`][continual_arc.core.jsonable.fields_json] of it, every field under its own
name, so no second declaration (a ``TypedDict`` kept in step by hand) can drop or rename one. A
document that holds such results holds them as themselves, and its writer
([`dumps_json`][continual_arc.core.files.dumps_json], the viewer's, the command line's) writes them by
[`as_json`][continual_arc.core.jsonable.as_json]. Read back, the same class is the declaration its
validator reads (pydantic reads a dataclass as it reads a ``TypedDict``); the test suite reads every
such class's document back through it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from pathlib import PurePath
from typing import TYPE_CHECKING, Protocol

from .records import JSONObject, JSONValue

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["ToJSON", "as_json", "as_json_object", "fields_json"]


class ToJSON(Protocol):
    """What carries its own JSON document (an estimate, a nested result)."""

    def to_json(self) -> object:
        """The object's JSON document."""
        ...


def as_json(value: object) -> JSONValue:
    """``value`` as JSON: a result by its ``to_json``, an enum by its value, a path as text.

    Containers are converted item by item.

    Raises:
        TypeError: a value JSON cannot hold (a set, an arbitrary object).
    """
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return as_json(to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return fields_json(value)
    if isinstance(value, Enum):
        return as_json(value.value)
    if isinstance(value, PurePath):
        return str(value)
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(item) for item in value]
    raise TypeError(f"{type(value).__name__} has no JSON form")


def as_json_object(value: object) -> JSONObject:
    """``value`` as JSON ([`as_json`][continual_arc.core.jsonable.as_json]) when that is an object.

    Raises:
        TypeError: ``value``'s JSON is not an object (a list, a number, text).
    """
    written = as_json(value)
    if not isinstance(written, dict):
        raise TypeError(f"{type(value).__name__}'s JSON is not an object")
    return written


def fields_json(obj: DataclassInstance) -> JSONObject:
    """Every field of a dataclass instance, under its own name, as JSON (`as_json`)."""
    return {field.name: as_json(getattr(obj, field.name)) for field in dataclasses.fields(obj)}
