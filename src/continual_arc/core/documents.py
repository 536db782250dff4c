"""Reading the documents on disk: each validated against its declaration, once, where it is read.

A run's files are declared in [`continual_arc.core.records`][continual_arc.core.records] as
`TypedDict`s; this module holds their readers. Each reader hands the file's text to a
[pydantic](https://docs.pydantic.dev) validator built from the declaration itself (a cached
`TypeAdapter`), in strict mode: a ``"3"`` where a number belongs, a ``phase`` outside
[`Phase`][continual_arc.core.records.Phase], a missing field, or a field a closed document does not
declare is refused with a [`DocumentError`][continual_arc.core.documents.DocumentError], one sentence
naming the file, the line and the field. What a reader returns is the validated mapping: the same
fields, the closed vocabularies as their enumerations (a `StrEnum` writes back the same string), so
a document read and written again is the same bytes.

pydantic was measured against msgspec on the record reader (``benchmarks/record_reader.py``) and
chosen: it validates the declarations as they are (msgspec cannot hold the recursive
[`JSONValue`][continual_arc.core.records.JSONValue] and drops the fields a game or plug-in adds),
and it exports JSON Schema ([`document_schema`][continual_arc.core.documents.document_schema]).
It is imported on the first read, not when this module is: building a validator costs a few
hundred milliseconds that a command reading no document should not pay.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ContinualArcError
from .records import Record, RunMeta, ScheduleMeta, Trajectory

if TYPE_CHECKING:
    from pydantic import TypeAdapter, ValidationError

__all__ = [
    "DOCUMENTS",
    "DocumentError",
    "document_schema",
    "parse_document",
    "parse_document_as_written",
    "parse_records",
    "parse_run_meta",
    "parse_schedule_meta",
    "parse_trajectory",
    "schedule_meta_json",
    "validate_document",
]

T = TypeVar("T")

DOCUMENTS: Mapping[str, type] = {
    "record": Record,
    "trajectory": Trajectory,
    "run-meta": RunMeta,
    "schedule-meta": ScheduleMeta,
}
"""Every document of a run directory, by the name of its exported schema (``schemas/<name>.json``)."""


class DocumentError(ContinualArcError, ValueError):
    """A document on disk that is not what its declaration says: the message names file, line and field."""


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}
"""Each declaration's validator, built on its first read in the process (building one takes milliseconds)."""


def _adapter(kind: type[T]) -> TypeAdapter[T]:
    """The validator of a declaration (cached in ``_ADAPTERS``)."""
    if kind not in _ADAPTERS:
        # Imported here, not at the top: pydantic and its first validator cost a few hundred
        # milliseconds of start-up that commands reading no document (--help, schedule make) skip.
        import pydantic

        _ADAPTERS[kind] = pydantic.TypeAdapter(kind)
    adapter: TypeAdapter[T] = _ADAPTERS[kind]
    return adapter


_UNION_TAG = re.compile(r"^(int|float|str|bool|none|typed-dict|[a-z-]+\[.*\])$")
"""How pydantic names the member of a union it tried, in an error's place (not a field of ours)."""


def _where(loc: Sequence[int | str]) -> tuple[int | str, ...]:
    """An error's place without the union members pydantic tried on the way."""
    return tuple(part for part in loc if isinstance(part, int) or not _UNION_TAG.match(part))


def _field(loc: Sequence[int | str]) -> str:
    """A field's place in a document, as a reader writes it: ``actions[2].correct``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _sentence(err: ValidationError, where: str, text: str) -> str:
    """The most precise of a validation's errors as one sentence naming the file (and line) and the field.

    A value refused by each member of a union (an integer or a list of them) is one fault: it is
    named at its deepest place (the list's item that is not an integer), and counted once.
    """
    errors = err.errors(include_url=False)
    first = max(errors, key=lambda e: len(_where(e["loc"])))
    if first["type"] == "json_invalid":
        try:
            json.loads(text)
        except json.JSONDecodeError as bad:
            return f"{where}: not valid JSON ({bad.msg})"
        return f"{where}: not valid JSON ({first['msg']})"
    places = {_where(e["loc"]) for e in errors}
    place = _where(first["loc"])
    others = [p for p in places if p != place and p != place[: len(p)]]
    more = f" (and {len(others)} more)" if others else ""
    field = f"field {_field(place)}" if place else "the document"
    if first["type"] == "missing":
        return f"{where}: {field} is missing{more}"
    if first["type"] in ("extra_forbidden", "unexpected_keyword_argument"):  # a TypedDict, a dataclass
        return f"{where}: {field} is not one this document holds{more}"
    said = str(first["msg"])
    said = said[len("Input ") :] if said.startswith("Input ") else said[0].lower() + said[1:]
    return f"{where}: {field} {said}, not {first['input']!r}{more}"


def parse_document(kind: type[T], text: str | bytes, where: str) -> T:
    """The document ``text`` holds, validated as a ``kind`` (a declaration of ``core.records``).

    Raises:
        DocumentError: ``text`` is not valid JSON, or not a ``kind`` (naming ``where`` and the field).
    """
    adapter = _adapter(kind)
    # Imported here for the reason _adapter gives; by now it is loaded, a look-up in sys.modules.
    from pydantic import ValidationError

    try:
        return adapter.validate_json(text, strict=True)
    except ValidationError as err:
        raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        raise DocumentError(_sentence(err, where, raw)) from None


def parse_document_as_written(kind: type[T], text: str | bytes, where: str) -> T:
    """The document ``text`` holds, validated as a ``kind``, returned as the file holds it.

    [`parse_document`][continual_arc.core.documents.parse_document] returns pydantic's copy, its
    keys in declaration order; this returns the file's own JSON, its keys in the file's order, for
    a document a command prints back (a summary) as it always has. Only for a declaration with no
    enumeration, whose validated copy holds nothing the JSON does not.

    Raises:
        DocumentError: as [`parse_document`][continual_arc.core.documents.parse_document].
    """
    parse_document(kind, text, where)
    document: T = json.loads(text)  # the very JSON just validated as a kind
    return document


def validate_document(kind: type[T], value: object, where: str) -> T:
    """A document already parsed into Python values (a TOML file's), validated as a ``kind``.

    Strict as [`parse_document`][continual_arc.core.documents.parse_document] is, in pydantic's
    Python mode: a field typed by an enumeration wants its member there, so a document holding one
    is read from its text instead.

    Raises:
        DocumentError: ``value`` is not a ``kind`` (naming ``where`` and the field).
    """
    adapter = _adapter(kind)
    # Imported here for the reason _adapter gives; by now it is loaded, a look-up in sys.modules.
    from pydantic import ValidationError

    try:
        return adapter.validate_python(value, strict=True)
    except ValidationError as err:
        raise DocumentError(_sentence(err, where, "")) from None


def parse_records(
    text: str, where: str = "records.jsonl", *, allow_partial_tail: bool = False
) -> list[Record]:
    """The records of a ``records.jsonl``'s text, each line validated (``where`` names the file).

    Args:
        text: the file's text, one record per line.
        where: the file, as errors name it.
        allow_partial_tail: skip a final line with no newline (cut short by a crash) instead of
            refusing it.

    Raises:
        DocumentError: a line is not valid JSON or not a record (naming the file, line and field).
    """
    lines = text.split("\n")
    tail = lines.pop()  # "" when the text ends with a newline
    records = [
        parse_document(Record, line, f"{where}, line {number}")
        for number, line in enumerate(lines, 1)
        if line.strip()
    ]
    if tail.strip() and not allow_partial_tail:
        raise DocumentError(
            f"{where}, line {len(lines) + 1}: cut short (no final newline); a crash mid-write?"
        )
    return records


def parse_trajectory(text: str | bytes, where: str = "trajectory") -> Trajectory:
    """A trajectory (``i/<name>.json``) from its text."""
    return parse_document(Trajectory, text, where)


def parse_run_meta(text: str | bytes, where: str = "meta.json") -> RunMeta:
    """A run's meta from the text of its ``meta.json``."""
    return parse_document(RunMeta, text, where)


def parse_schedule_meta(value: Mapping[str, Any], where: str = "schedule meta") -> ScheduleMeta:
    """A schedule's meta block from its parsed JSON (a schedule file's, or one rebuilt), validated."""
    return parse_document(ScheduleMeta, json.dumps(dict(value)), where)


def schedule_meta_json(meta: Mapping[str, object]) -> ScheduleMeta:
    """A schedule's meta block exactly as it reads back from JSON (tuples as lists, keys as strings)."""
    return parse_schedule_meta(json.loads(json.dumps(dict(meta))))


def document_schema(kind: type) -> dict[str, Any]:
    """The JSON Schema of a declared document (a `TypedDict` of any stage), as its validator sees it.

    What ``scripts/export_schemas.py`` writes to ``schemas/``, and the viewer's types are generated from.
    """
    schema: dict[str, Any] = _adapter(kind).json_schema(mode="validation")
    return schema
