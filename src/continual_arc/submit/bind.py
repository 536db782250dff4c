"""What ties a submission's other files to its runs: the verification, the learner, ``protocol.json``.

A verification (``verification.json``) switches the canonical check off, since it plays at a seed
of its own; it does so only when a trusted signature vouches for it (the directory's standing,
[`standing_of`][continual_arc.submit.standing.standing_of], is verified or reproduced) and it is the
verification of these runs. Unsigned, it is a file like any other and counts for nothing. The learner that
``submission.json`` names, and the code its fingerprint describes, are the stream's. A
``protocol.json``, when there is one, says what the runs give. Each problem is one line
``<file>: <field> ..., but <what the runs give>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..core.documents import DocumentError
from ..core.files import RecordsError, read_json
from ..core.records import Phase, Play
from ..core.result_files import read_verification
from ..tracks.pack import track_name
from ..tracks.registry import pack_in_use
from .check_run import LoadedRun
from .numbers import CheckNumbers
from .standing import Standing, StandingKind

__all__ = ["MODES", "learner_problems", "protocol_json_problems", "verification_problems"]

MODES = ("verified", "reproduced")
"""The modes ``continual-arc verify`` writes: on a rule pack's rules, or on a track's public tasks."""

_TEST_FIELDS = (
    "test",
    "instances",
    "tasks",
    "learner.budget_used",
    "learner.share_solved",
    "reset.budget_used",
    "reset.share_solved",
    "share_saved.value",
    "saving.value",
    "plays.learner",
    "plays.reset",
)
"""The fields of a test's place on the plane that do not depend on the bootstrap (its resamples and
seed): the point estimates and counts. The intervals (``low``, ``high``) and ``note`` do, and the bare
model's fields depend on the bare runs the submission names, which ``protocol.json`` never reads."""

_LEARNED_FIELDS = (
    "instances",
    "tasks",
    "matched_by_task_mean",
    "learnable_budget",
    "perfect_memory",
    "learner.budget_used",
    "learner.share_solved",
    "reset.budget_used",
    "reset.share_solved",
    "share_learned.value",
)
"""The share learned's fields that do not depend on the bootstrap."""


def _at(value: object, dotted: str) -> object:
    """The value at a dotted path of nested objects (``None`` where a step is missing)."""
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _spec(learner: Mapping[str, object]) -> tuple[object, dict[str, object]]:
    """A recorded learner's class and arguments (``None`` arguments, as earlier releases wrote, are none)."""
    kwargs = learner.get("kwargs")
    return learner.get("class"), dict(kwargs) if isinstance(kwargs, Mapping) else {}


def verification_problems(root: Path, stream: LoadedRun | None, standing: Standing) -> tuple[bool, list[str]]:
    """Whether ``verification.json`` is the verification of these runs, and each reason it is not.

    Unless a trusted signature vouches for the directory (``standing`` verified or reproduced), it
    is not read at all: ``(False, [])``, the canonical check on, and the standing's reason says why.
    It is accepted (and the canonical check is off) only when its ``mode`` is one ``verify``
    writes, its seed, learner and configuration are the stream's, the learner was built with no
    arguments, its sandbox report (``isolation``) is there, and, for ``verified``, its pack is the
    one given to this process (``--pack``) for the stream's track, with that manifest digest.

    Returns:
        ``(accepted, problems)``; ``(False, [])`` when there is no ``verification.json``.
    """
    path = root / "verification.json"
    if standing.kind is StandingKind.REPORTED:
        return False, []  # written by anyone: what it says raises nothing
    try:
        marker = read_verification(path)
    except FileNotFoundError:
        return False, []
    except (RecordsError, DocumentError) as err:
        return False, [f"{err}: the canonical check stays on"]
    if stream is None or stream.meta is None:
        return False, [f"{path}: the stream run is unusable, so nothing ties it to the runs"]
    schedule, (learner, kwargs) = stream.meta["schedule"], _spec(stream.meta["learner"])
    mode, about = marker.get("mode"), marker.get("about")
    about = about if isinstance(about, Mapping) else {}
    problems: list[str] = []
    if mode not in MODES:
        problems.append(f"{path}: mode {mode!r} is not one verify writes ({', '.join(MODES)})")
    wanted = {"seed": schedule.get("seed"), "learner": learner, "config": schedule.get("config")}
    problems += [
        f"{path}: {key} {marker.get(key)!r}, but the stream was played with {key} {value!r}"
        for key, value in wanted.items()
        if marker.get(key) != value
    ]
    if kwargs:
        problems.append(
            f"{path}: learner {learner} with arguments {kwargs} in the stream, but verify builds it with none"
        )
    isolation = marker.get("isolation")
    if not isinstance(isolation, Mapping) or not isolation:
        problems.append(
            f"{path}: isolation is missing: the verification did not finish, or was not sandboxed"
        )
    track = schedule.get("track")
    if mode == "verified":
        problems += _pack_problems(path, about, str(track))
    elif mode == "reproduced" and "track" in about and about["track"] != track:
        problems.append(f"{path}: about.track {about['track']!r}, but the stream is of track {track!r}")
    return not problems, problems


def _pack_problems(path: Path, about: Mapping[str, object], track: str) -> list[str]:
    """A ``verified`` marker's pack against the pack in use for the stream's track."""
    named = track_name(str(about.get("pack")))
    if named != track:
        return [
            f"{path}: about.pack {about.get('pack')!r} is the pack of track {named}, "
            f"but the stream is of track {track}"
        ]
    pack = pack_in_use(track)
    if pack is None or about.get("manifest_sha256") != pack.digest:
        given = pack.digest if pack is not None else "no pack given"
        return [
            f"{path}: about.manifest_sha256 {about.get('manifest_sha256')!r} is not the pack in use ({given})"
        ]
    return []


def learner_problems(
    runs: Mapping[str, LoadedRun], submission: Mapping[str, object], root: Path
) -> list[str]:
    """The learner bound to the runs: each run's fingerprint, and the learner the submission names.

    Every run records its learner's fingerprint
    ([`continual_arc.play.fingerprint`][continual_arc.play.fingerprint]), whose ``package`` is the top-level
    package its code was read from: the package of the learner's import path. ``submission.json``'s
    ``learner`` and ``learner_kwargs``, when given, are the stream's.
    """
    problems: list[str] = []
    for run in runs.values():
        if run.meta is None:
            continue
        where, fingerprint = run.path / "meta.json", run.meta.get("learner_fingerprint")
        learner = str(run.meta["learner"].get("class"))
        if not isinstance(fingerprint, Mapping):
            problems.append(f"{where}: learner_fingerprint is missing: nothing says which code played")
            continue
        package = learner.split(":", 1)[0].split(".", 1)[0]
        if fingerprint.get("package") != package:
            problems.append(
                f"{where}: learner_fingerprint package {fingerprint.get('package')!r} is not the package "
                f"of the learner {learner} ({package!r})"
            )
    stream = runs.get(Play.STREAM)
    if stream is None or stream.meta is None:
        return problems
    where = root / "submission.json"
    played, kwargs = _spec(stream.meta["learner"])
    if submission.get("learner") is not None and submission["learner"] != played:
        problems.append(
            f"{where}: learner {submission['learner']!r}, but the stream was played by {played!r}"
        )
    named = submission.get("learner_kwargs")
    if named is not None and named != kwargs:
        problems.append(f"{where}: learner_kwargs {named!r}, but the stream's learner had {kwargs!r}")
    return problems


def protocol_json_problems(
    root: Path, runs: Mapping[str, LoadedRun], numbers: CheckNumbers | None
) -> list[str]:
    """``protocol.json`` (when present) against what the runs give.

    Compared: the learner, configuration, seed and users against the stream's meta; the protocol
    verdict against the one recomputed from its schedule (without ``release``); and on the plane,
    the fields that do not depend on the bootstrap (`_TEST_FIELDS`, `_LEARNED_FIELDS`:
    the point estimates and counts, not the intervals), against the numbers ``check`` computed.
    """
    path = root / "protocol.json"
    try:
        document = read_json(path)
    except FileNotFoundError:
        return []
    except RecordsError as err:
        return [str(err)]
    if not isinstance(document, Mapping):
        return [f"{path}: not an object"]
    stream = runs.get(Play.STREAM)
    if stream is None or stream.meta is None:
        return []
    schedule, (learner, kwargs) = stream.meta["schedule"], _spec(stream.meta["learner"])
    verdict: Mapping[str, object] = stream.protocol or {}
    wanted: dict[str, object] = {
        "learner.class": learner,
        "learner.kwargs": kwargs,
        "config": schedule.get("config"),
        "seed": schedule.get("seed"),
        "users": schedule.get("users"),
        "protocol.track": verdict.get("track"),
        "protocol.canonical": verdict.get("canonical"),
        "protocol.deviations": verdict.get("deviations"),
    }
    if numbers is not None:
        for name, comparison in ((Phase.SEEN, numbers["seen"]), ("held_out", numbers["held-out"])):
            wanted |= {f"plane.{name}.{f}": _at(comparison.to_json(), f) for f in _TEST_FIELDS}
        learned = numbers.get("learned")
        if learned is not None:
            wanted |= {f"plane.learned.{f}": _at(learned.to_json(), f) for f in _LEARNED_FIELDS}
    return [
        f"{path}: {key} is {_at(document, key)!r}, but the runs give {value!r}"
        for key, value in wanted.items()
        if _at(document, key) != value
    ]
