"""What one stage hands the next on disk: records, trajectories, run and schedule meta, as types.

Every run directory holds the same four kinds of JSON, and every stage after the one that wrote
them (the measures, the checker, the viewer, the protocol, the sweep) reads them back. They are
declared here once, at the lowest stage, so that each reader sees the same fields under strict
typing, and each has one reader and one writer:

=================  ======================================================
file               type
=================  ======================================================
``records.jsonl``  [`Record`][continual_arc.core.records.Record], one a line
``i/<n>.json``     [`Trajectory`][continual_arc.core.records.Trajectory]
``meta.json``      [`RunMeta`][continual_arc.core.records.RunMeta]
schedule block     [`ScheduleMeta`][continual_arc.core.records.ScheduleMeta]
=================  ======================================================

They are TypedDicts, not dataclasses, on purpose: the files are the contract, written byte
for byte as before (keys sorted, the same separators), and a record read back is the very mapping
that was written, extra fields (a game's level score, a plug-in's summary) included. Each is
written here ([`records_text`][continual_arc.core.records.records_text],
[`trajectory_text`][continual_arc.core.records.trajectory_text],
[`run_meta_text`][continual_arc.core.records.run_meta_text]) and read, validated against the same
declaration, by [`continual_arc.core.documents`][continual_arc.core.documents]. Whether a document
keeps fields it does not declare is said beside it (``keeps_extra``/``closed``): only a record and a
trajectory do, since games and plug-ins add theirs.

The closed vocabularies are string enumerations (`StrEnum`): a member is its
string, so it is written and compared as the plain string the files hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, Literal, NotRequired, TypeAlias, TypeVar

# pydantic reads a TypedDict from typing_extensions only, on Python 3.11 (core.documents validates them).
from typing_extensions import TypeAliasType, TypedDict

__all__ = [
    "ActionEntry",
    "CodeFingerprint",
    "End",
    "EpisodeType",
    "Event",
    "JSONObject",
    "JSONValue",
    "LearnerFault",
    "LearnerSpec",
    "Phase",
    "Play",
    "PluginBlock",
    "PluginCounts",
    "PluginEntry",
    "ProtocolBlock",
    "Record",
    "RunMeta",
    "ScheduleMeta",
    "SlotFields",
    "Trajectory",
    "closed",
    "is_primary",
    "keeps_extra",
    "record_line",
    "records_text",
    "run_meta_text",
    "trajectory_text",
]

JSONValue = TypeAliasType(
    "JSONValue", "str | int | float | bool | list[JSONValue] | dict[str, JSONValue] | None"
)
"""Any JSON value, as `json.loads` returns it."""

JSONObject: TypeAlias = dict[str, JSONValue]
"""A JSON object whose fields are not declared (a plug-in's, a learner's log, a game's state)."""

_Declared = TypeVar("_Declared", bound=type)


def _extra(extra: Literal["allow", "forbid"]) -> Callable[[_Declared], _Declared]:
    """Mark whether a document keeps fields it does not declare, for its validator.

    pydantic reads ``__pydantic_config__`` from a `TypedDict`; setting the key here spares this,
    the lowest stage, importing pydantic (the readers of
    [`continual_arc.core.documents`][continual_arc.core.documents] do, on first use).
    """

    def mark(declared: _Declared) -> _Declared:
        setattr(declared, "__pydantic_config__", {"extra": extra})  # noqa: B010 (a dunder mypy does not know)
        return declared

    return mark


keeps_extra = _extra("allow")
"""Mark a document (a `TypedDict`) as keeping the fields it does not declare, for its validator."""
closed = _extra("forbid")
"""Mark a document (a `TypedDict`) as refusing any field it does not declare, for its validator."""


class Phase(StrEnum):
    """The part of a schedule a slot belongs to; ``held-out`` and ``seen`` are the frozen tests."""

    STREAM = "stream"
    EPILOGUE = "epilogue"
    HELD_OUT = "held-out"
    SEEN = "seen"


class Play(StrEnum):
    """A play of the protocol, named as its directory: the stream, each frozen test, and the reset of each.

    Here beside [`Phase`][continual_arc.core.records.Phase] rather than with the protocol's plan, since the
    measures and the checker, which cannot import the protocol, read the plays' records by these names.
    """

    STREAM = "stream"
    STREAM_RESET = "stream-reset"
    HELD_OUT = "held-out"
    HELD_OUT_RESET = "held-out-reset"
    SEEN = "seen"
    SEEN_RESET = "seen-reset"

    @classmethod
    def of(cls, test: Phase | None, *, reset: bool = False) -> Play:
        """The play of frozen test ``test`` (``None``: of the stream), or with ``reset`` its reset."""
        played = Phase.STREAM if test is None else test
        return cls(f"{played}-reset") if reset else cls(played.value)


class End(StrEnum):
    """Why an instance ended: by the rules (the first four), or outside them (a fault, a time limit)."""

    SOLVED = "solved"
    ATTEMPT_CAP = "attempt cap"
    GAVE_UP = "gave up"
    ACTION_CAP = "action cap"
    LEARNER_ERROR = "learner error"
    TIME_LIMIT = "time limit"
    UNFINISHED = "unfinished"
    """Not an end a run writes: what the checker's replay says of actions that never ended it."""

    @property
    def is_fault(self) -> bool:
        """Whether the instance was ended outside the rules (a learner fault or a time limit)."""
        return self in (End.LEARNER_ERROR, End.TIME_LIMIT)

    @classmethod
    def fault(cls, value: object) -> End | None:
        """The fault a recorded ``end`` names (``None`` when it names none, or is not an end at all)."""
        return cls(value) if isinstance(value, str) and value in (cls.LEARNER_ERROR, cls.TIME_LIMIT) else None


class EpisodeType(StrEnum):
    """A slot of the schedule (``primary``), or an auxiliary episode a plug-in asked for (``addon``)."""

    PRIMARY = "primary"
    ADDON = "addon"


@closed
class ActionEntry(TypedDict):
    """One action of a record: its kind and outcome (what the checker replays the rules from)."""

    action: JSONValue
    correct: NotRequired[bool]
    invalid: NotRequired[bool]
    refused: NotRequired[bool]
    ended: NotRequired[str]
    x: NotRequired[JSONValue]
    y: NotRequired[JSONValue]


@closed
class LearnerFault(TypedDict):
    """What a learner's fault left in its record: where it raised, the exception and its traceback."""

    during: str
    type: str
    message: str
    traceback: NotRequired[str]  # absent from a fault in observe after the instance had ended


@closed
class PluginCounts(TypedDict, total=False):
    """What a plug-in's responses add up to: metrics summed; events, enqueues and transforms counted."""

    metrics: dict[str, float]
    events: int
    enqueued: int
    transforms: int


@closed
class PluginBlock(PluginCounts, total=False):
    """What one plug-in said about an instance, summed for its record (each field only when said)."""

    metadata: JSONObject
    stopped: bool


@closed
class _PluginWhere(TypedDict):
    plugin: str
    hook: str


@closed
class PluginEntry(_PluginWhere, total=False):
    """One plug-in response kept whole in a trajectory: who said it, at which event, and what."""

    event: int
    transformed: bool
    metadata: JSONValue
    metrics: dict[str, float]
    events: JSONValue
    enqueued: list[dict[str, str]]
    stop_after_episode: bool


@closed
class SlotFields(TypedDict):
    """A slot's fields, which a record and a trajectory both open with (``Slot.to_json``)."""

    step: int
    round: int
    user: int
    phase: Phase
    task_id: str
    seed: int
    reset_before: bool
    exposure_index: int | None  # None in an auxiliary episode's record, which is in no schedule
    gap: int | None
    user_exposure_index: int | None  # as exposure_index
    user_gap: int | None


@keeps_extra
class Record(SlotFields):
    """One line of ``records.jsonl``: an ended instance, its slot, its charge and its counters.

    An auxiliary episode's record (``episode_type`` ``addon``) is in no schedule: its exposure
    fields are ``null``, and the measures read primary records only
    ([`is_primary`][continual_arc.core.records.is_primary]).
    """

    alias: str
    episode_type: NotRequired[EpisodeType]
    actions: list[ActionEntry]
    demos_bought: int
    demos_refused: int
    wrong_attempts: int
    solved: bool
    end: End
    charge: int
    max_cost: int
    budget_share: float
    wall_time: float
    learner_time: float
    round_time: NotRequired[float]
    resources: dict[str, float]
    instance_resources: dict[str, float] | None
    training_resources: NotRequired[dict[str, float]]
    teacher_resources: NotRequired[dict[str, float]]
    experiment: NotRequired[str]
    error: LearnerFault | None
    addon_index: NotRequired[int | None]
    round_addons: NotRequired[int]
    plugin: NotRequired[str]
    plugins: NotRequired[dict[str, PluginBlock]]
    baseline_actions: NotRequired[int]
    baseline_source: NotRequired[str]
    level_actions: NotRequired[int]
    level_score: NotRequired[float]


@closed
class Event(TypedDict):
    """One step of a trajectory: the observation's counters, the action and its feedback (as JSON)."""

    observation: JSONObject
    action: JSONObject | None
    feedback: JSONObject | None
    learner_action: NotRequired[JSONObject]


@keeps_extra
class Trajectory(SlotFields):
    """``i/<name>.json``: an instance's slot, its opening (the kind's own fields), events and result."""

    alias: str
    episode_type: EpisodeType
    events: list[Event]
    result: JSONObject
    learner_log: JSONValue
    error: LearnerFault | None
    action_cap: NotRequired[int]
    baseline_actions: NotRequired[int]
    baseline_source: NotRequired[str]
    plugins: NotRequired[list[PluginEntry]]
    teacher_play: NotRequired[JSONObject]  # an experiment's teacher's play of an uncharged copy


@closed
class CodeFingerprint(TypedDict):
    """What identifies a learner's code: its top-level package, its version, its sources' SHA-256."""

    package: str
    version: str | None
    sources_sha256: str | None


LearnerSpec = TypedDict("LearnerSpec", {"class": str, "kwargs": JSONObject | None})
"""The learner a run played: ``module:Class`` (``class``, a keyword, hence this form) and its arguments.

Earlier releases recorded no arguments as ``null``; a reader takes that as none.
"""
closed(LearnerSpec)


@closed
class ProtocolBlock(TypedDict):
    """The verdict on a schedule: canonical or not, and each deviation, for a track and release."""

    canonical: bool
    deviations: list[str]
    track: str
    release: NotRequired[str]


@closed
class ScheduleMeta(TypedDict):
    """A schedule's meta block: what rebuilds it (configuration, seed, order or test, users, width)."""

    config: str
    configuration: dict[str, Any]  # Config.to_dict()'s form: Config.from_dict reads it
    track: str
    seed: int
    users: int
    order: str | None  # None in a frozen test's schedule (its test field names which)
    test: str | None
    width: int | None
    reset_each: bool
    epilogue: bool
    rounds_cut: int | None
    sources: dict[str, str]
    protocol: ProtocolBlock
    first_sight: NotRequired[bool]  # true in a first-sight schedule (stream.first_sight), else absent


@closed
class RunMeta(TypedDict):
    """``meta.json``: the schedule played, its verdict, the learner, versions, the run's own options."""

    format: int
    schedule: ScheduleMeta
    protocol: ProtocolBlock
    learner: LearnerSpec
    alias_style: NotRequired[str]
    plugins: NotRequired[list[JSONValue]]
    slots: NotRequired[int]
    versions: NotRequired[dict[str, Any]]  # the release and every source's versions and digests
    learner_fingerprint: NotRequired[CodeFingerprint | None]
    concurrent_users: NotRequired[bool]
    max_concurrent: NotRequired[int | None]
    instance_time_limit: NotRequired[float | None]
    resumes: NotRequired[list[JSONObject]]
    platform: NotRequired[str]
    python: NotRequired[str]
    started: NotRequired[str]


def _dumps_compact(value: object) -> str:
    """One line of compact JSON, keys sorted (the C encoder: the indented form is 10x slower)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")) + "\n"


def is_primary(record: Mapping[str, object]) -> bool:
    """Whether a record (or trajectory) is a slot of the schedule, not an auxiliary episode.

    Records written before auxiliary episodes existed carry no ``episode_type``: they are primary.
    """
    return record.get("episode_type", EpisodeType.PRIMARY) == EpisodeType.PRIMARY


def record_line(record: Record) -> str:
    """One record as its line of ``records.jsonl``."""
    return _dumps_compact(record)


def records_text(records: Iterable[Record]) -> str:
    """Records as the text of ``records.jsonl``, one line each."""
    return "".join(record_line(r) for r in records)


def trajectory_text(trajectory: Trajectory | Mapping[str, object]) -> str:
    """A trajectory as the text of its ``i/<name>.json`` (compact: trajectories are large)."""
    return _dumps_compact(trajectory)


def run_meta_text(meta: RunMeta | Mapping[str, object]) -> str:
    """A run's meta as the text of ``meta.json`` (indented, keys sorted)."""
    return json.dumps(meta, indent=1, sort_keys=True) + "\n"
