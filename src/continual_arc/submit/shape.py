"""The shape of a run's files: every field the checks and the measures read, present and of its type.

The checks compare values; the measures add them up. A record whose ``charge`` is a string, or a
meta whose ``learner`` is a list, would make either raise, and a traceback is not an answer. So a
run is read in two steps: its shape here (one line per malformed field, the first few of a run),
then, only when the shape holds, the checks of [`check_run`][continual_arc.submit.check_run]. A run whose
shape does not hold is unusable, as a file that does not parse is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ..core.records import End, is_primary
from ..play.aliases import ALIAS_STYLES

__all__ = ["MAX_LINES", "meta_shape", "records_shape"]

MAX_LINES = 5
"""At most this many shape problems are named per file: the first ones say what is wrong."""

_NONE = type(None)
_NUMBER = (int, float)

_RECORD: Mapping[str, tuple[type, ...]] = {
    "step": (int,),
    "round": (int,),
    "user": (int,),
    "phase": (str,),
    "task_id": (str,),
    "seed": (int,),
    "actions": (list,),
    "solved": (bool,),
    "end": (str,),
    "charge": _NUMBER,
    "max_cost": _NUMBER,
    "budget_share": _NUMBER,
    "wrong_attempts": (int,),
    "demos_bought": (int,),
    "demos_refused": (int,),
}
"""The fields every record holds (the runner writes them all), and their types."""

_RECORD_OPTIONAL: Mapping[str, tuple[type, ...]] = {
    "episode_type": (str,),
    "alias": (str,),
    "reset_before": (bool,),
    "exposure_index": (int, _NONE),
    "gap": (int, _NONE),
    "user_exposure_index": (int, _NONE),
    "user_gap": (int, _NONE),
    "error": (dict, str, _NONE),  # the runner's LearnerFault (during, type, message)
    "plugins": (dict, _NONE),
    "plugin": (str, _NONE),
    "round_addons": (int,),
    "addon_index": (int, _NONE),
    "resources": (dict, _NONE),
    "instance_resources": (dict, _NONE),
    "training_resources": (dict, _NONE),
    "teacher_resources": (dict, _NONE),
    "experiment": (str, _NONE),
    "wall_time": (*_NUMBER, _NONE),
    "learner_time": (*_NUMBER, _NONE),
    "round_time": (*_NUMBER, _NONE),
}
"""Fields a record may lack (older releases, auxiliary episodes), typed when present."""

_SLOT_KEYS = ("exposure_index", "gap")
"""Of those, the ones a slot's (primary) record must hold: the measures group slots by them."""

_META: Mapping[str, tuple[type, ...]] = {
    "schedule": (dict,),
    "learner": (dict,),
}
_META_OPTIONAL: Mapping[str, tuple[type, ...]] = {
    "protocol": (dict, _NONE),
    "plugins": (list, _NONE),
    "versions": (dict,),
    "learner_fingerprint": (dict, _NONE),
    "alias_style": (str,),
    "instance_time_limit": (*_NUMBER, _NONE),
}


def _typed(value: object, types: tuple[type, ...]) -> bool:
    """Whether ``value`` is one of ``types``, a bool never counting as a number (JSON tells them apart)."""
    if isinstance(value, bool):
        return bool in types
    return isinstance(value, types)


def _names(types: tuple[type, ...]) -> str:
    words = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "an object", _NONE: "null"}  # fmt: skip
    return " or ".join(dict.fromkeys(words[t] for t in types))


def _fields(value: Mapping[str, object], required: Mapping[str, tuple[type, ...]],
            optional: Mapping[str, tuple[type, ...]]) -> list[str]:  # fmt: skip
    """What is wrong with the fields of one object, in words."""
    wrong = [f"{key} is missing" for key in required if key not in value]
    for key, types in {**required, **optional}.items():
        if key in value and not _typed(value[key], types):
            wrong.append(f"{key} is {value[key]!r}, not {_names(types)}")
    return wrong


def _record(record: object) -> list[str]:
    if not isinstance(record, dict):
        return [f"the record is {type(record).__name__}, not an object"]
    wrong = _fields(record, _RECORD, _RECORD_OPTIONAL)
    primary = is_primary(record)
    if not primary and not _typed(record.get("addon_index"), (int,)):
        # an auxiliary episode's trajectory is named by its index (i/addon-<n>.json)
        wrong.append(f"episode_type {record.get('episode_type')!r} without an integer addon_index")
    if primary:  # the measures read a slot's place in the stream by these keys
        wrong += [f"{key} is missing in a slot's record" for key in _SLOT_KEYS if key not in record]
    if primary and "exposure_index" in record and record["exposure_index"] is None:
        wrong.append("exposure_index is null in a slot's record")
    max_cost = record.get("max_cost")
    positive = isinstance(max_cost, bool) or not isinstance(max_cost, (int, float)) or max_cost > 0
    if not positive:  # the measures divide by it (a wrong type is named above)
        wrong.append(f"max_cost is {max_cost!r}, not a positive number")
    actions = record.get("actions")
    listed = actions if isinstance(actions, list) else []
    for at, action in enumerate(listed):
        # The last action of an instance a fault ended may be unanswered (null), as the replay reads it.
        unanswered = at == len(listed) - 1 and isinstance(action, dict) and action.get("action") is None
        if unanswered and End.fault(record.get("end")) is not None:
            continue
        if not isinstance(action, dict) or not isinstance(action.get("action"), str):
            wrong.append(f"action {at} is not an object naming its action")
            break
    return wrong


def records_shape(records: Sequence[object], path: Path) -> list[str]:
    """One line for each of the first malformed records of ``records.jsonl`` (empty when all hold)."""
    problems: list[str] = []
    for line, record in enumerate(records, 1):
        wrong = _record(record)
        if wrong:
            problems.append(f"{path}, line {line}: {'; '.join(wrong)}")
        if len(problems) >= MAX_LINES:
            break
    return problems


def meta_shape(meta: object, path: Path) -> list[str]:
    """What is malformed in ``meta.json``, as one line (empty when its shape holds)."""
    if not isinstance(meta, dict):
        return [f"{path}: not an object"]
    wrong = _fields(meta, _META, _META_OPTIONAL)
    learner = meta.get("learner")
    if isinstance(learner, dict):
        wrong += [f"learner {w}" for w in _fields(learner, {"class": (str,)}, {"kwargs": (dict, _NONE)})]
    if isinstance(meta.get("alias_style"), str) and meta["alias_style"] not in ALIAS_STYLES:
        wrong.append(f"alias_style {meta['alias_style']!r} is none of {', '.join(ALIAS_STYLES)}")
    versions = meta.get("versions")
    sources = versions.get("sources", {}) if isinstance(versions, dict) else {}
    if not isinstance(sources, dict) or not all(
        isinstance(s, dict) and isinstance(s.get("versions", {}), dict) for s in sources.values()
    ):
        wrong.append("versions sources is not an object of objects, each with its versions")
    return [f"{path}: {'; '.join(wrong)}"] if wrong else []
