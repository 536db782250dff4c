"""The viewer's documents as types: what `documents` builds and the page reads.

Fields read from a run's own files, which the viewer draws whatever their state, are
[`JSONValue`][continual_arc.core.records.JSONValue] (``null`` when missing); what the measures compute has
their types.
"""

from __future__ import annotations

from typing_extensions import TypedDict  # the form pydantic reads on 3.11 (scripts/export_schemas.py)

from ..core.records import JSONValue
from ..measure.diagnostics import Diagnostics
from .catalog import Partner

__all__ = [
    "AddonEntry",
    "DiagnosticsDocument",
    "IndexDocument",
    "IndexPage",
    "MemoryDocument",
    "PhaseCell",
    "ProtocolListing",
    "ProtocolView",
    "RunDocument",
    "RunOverview",
    "Strip",
    "StripColumns",
]


class PhaseCell(TypedDict):
    """A phase of a run as the index shows it: its instances, U and P."""

    instances: int
    budget_used: float | None
    share_solved: float | None


class RunOverview(TypedDict):
    """What the index says of a run (fields of its meta the viewer could not read are ``null``)."""

    id: str
    label: str
    path: str
    protocol: str | None
    play: str | None
    learner: JSONValue
    learner_kwargs: JSONValue
    track: JSONValue
    kind: str
    config: JSONValue
    seed: JSONValue
    users: JSONValue
    order: JSONValue
    test: JSONValue
    width: JSONValue
    reset_each: JSONValue
    protocol_block: JSONValue
    slots: JSONValue
    instances: int
    budget_used: float | None
    share_solved: float | None
    phases: dict[str, PhaseCell]
    partners: list[Partner]
    reset: str | None
    files: dict[str, bool]
    problems: list[str]
    notes: list[str]


class MemoryDocument(TypedDict):
    """What the learner said it kept (``memory.json``) and what plug-ins said (``plugins.json``)."""

    format: int
    id: str
    memory: JSONValue
    plugins: JSONValue
    problems: list[str]


class ProtocolListing(TypedDict):
    """A protocol as the index lists it."""

    id: str
    label: str
    path: str
    plays: dict[str, str | None]
    problems: list[str]


class IndexDocument(TypedDict):
    """The page's first document: every run and protocol, and whether playing is available."""

    format: int
    live: bool
    runs: list[RunOverview]
    protocols: list[ProtocolListing]
    problems: list[str]


class StripColumns(TypedDict):
    """The stream strip's columns, one value per primary instance in order of step."""

    step: list[int]
    user: list[int]
    round: list[int]
    phase: list[str]
    task: list[int]
    seed: list[int]
    exposure: list[int | None]  # None for an auxiliary episode, in no schedule
    gap: list[int | None]
    charge: list[int]
    solved: list[bool]
    end: list[str]


class Strip(TypedDict):
    """The stream strip: its tasks (each column's ``task`` indexes them), the charge's top, its columns."""

    tasks: list[str]
    max_cost: int
    columns: StripColumns


class AddonEntry(TypedDict):
    """An auxiliary episode a plug-in asked for, for its replay."""

    name: str
    step: int
    round: int
    user: int
    phase: str
    task: str
    seed: int
    plugin: str | None
    reason: object
    charge: int
    solved: bool


class RunDocument(RunOverview):
    """A run: its overview, its stream strip and its auxiliary episodes."""

    format: int
    strip: Strip
    addons: list[AddonEntry]
    summary_complete: JSONValue


class DiagnosticsDocument(TypedDict):
    """A run's stream diagnostics, or why they are missing."""

    format: int
    id: str
    diagnostics: Diagnostics | None
    problem: str | None


class ProtocolView(TypedDict):
    """A protocol: its plays, the plane (``protocol.json``'s, else computed) and its problems."""

    format: int
    id: str
    label: str
    path: str
    plays: dict[str, str | None]
    learner: JSONValue
    config: JSONValue
    seed: JSONValue
    users: JSONValue
    protocol_block: JSONValue
    plane: JSONValue
    plane_note: str | None
    problems: list[str]


class IndexPage(IndexDocument):
    """The index as the site serves it: with whether a leaderboard was given and the Tasks page is on."""

    leaderboard: bool
    tasks: bool
