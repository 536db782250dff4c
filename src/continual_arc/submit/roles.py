"""The runs of a submission against each other, and against what the leaderboard accepts.

The role each plays, the learner (and the code) that played it, the names it was played under,
the release and data, and whether it is canonical.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.config import TESTS
from ..core.records import Play
from ..data.status import source_digests
from ..play.declared import reference_learner, track_floor_learner
from ..tracks.registry import pack_in_use
from .check_run import LoadedRun

__all__ = ["canonical_problems", "cross_checks"]

_BARE = "bare"
"""The role (``continual_arc.reference_learners``) of the learner a ``-bare`` run must play."""


def _expect(run: LoadedRun, role: str, stream: Mapping[str, object]) -> list[str]:
    """The schedule a role needs, at the stream's configuration, seed and users.

    A learner's test may be played N users a round (``--width N``, its reset restoring the end of
    the stream); the held-out test's reset may be ``--order fresh``, the held-out instances alone.
    """
    assert run.meta is not None
    meta, where = run.meta["schedule"], run.path / "meta.json"
    # The test's name as plain text, as meta.json holds it (and as the message shows it).
    test = next((str(t) for t in TESTS if role.startswith(t)), None)
    wanted: dict[str, object] = {
        "test": test,
        "width": 1 if role.endswith(("-reset", "-bare", "-floor")) and test else meta.get("width"),
        "reset_each": role == Play.STREAM_RESET,
        "config": stream["config"],
        "seed": stream["seed"],
        "configuration": stream["configuration"],
    }
    if role == Play.HELD_OUT_RESET and meta.get("order") == "fresh":
        wanted.update(test=None, width=None, reset_each=True, order="fresh")
    elif test is None:
        wanted.update(order=stream["order"], epilogue=stream["epilogue"], rounds_cut=stream["rounds_cut"])
    return [
        f"{where}: schedule {key} is {meta.get(key)!r}, but the {role} run needs {value!r}"
        for key, value in wanted.items()
        if meta.get(key) != value
    ]


def _same_learner(
    run: LoadedRun, role: str, stream: LoadedRun, submission: Mapping[str, object]
) -> list[str]:
    assert run.meta is not None and stream.meta is not None
    learner, where = run.meta["learner"], run.path / "meta.json"
    if role.endswith("-bare"):
        bare = reference_learner(_BARE) or "a bare model (no installed package declares one)"
        problems = [] if learner.get("class") == bare else [f"{where}: {learner.get('class')} is not {bare}"]
        model = (learner.get("kwargs") or {}).get("model")
        if submission.get("student") and model != submission["student"]:
            problems.append(
                f"{where}: the bare model is {model!r}, but the student is {submission['student']!r}"
            )
        return problems
    if role.endswith("-floor"):
        # The track's stateless floor, built with no arguments; its records are compared with the
        # checker's own floor in check, so its code is not compared here.
        if stream.track is None:  # the checks of the stream's run said why
            return [f"{where}: the stream's track cannot be served here, so its floor cannot be named"]
        floor = track_floor_learner(stream.track)
        wanted = {"class": floor or "a stateless floor (no installed package declares one)", "kwargs": {}}
        return [] if _spec(learner) == wanted else [f"{where}: played by {learner}, not the floor {wanted}"]
    theirs = stream.meta["learner"]
    if _spec(learner) != _spec(theirs):
        return [
            f"{where}: played by {learner}, the stream by {theirs}: the {role} run must be the same learner"
        ]
    code, stream_code = run.meta.get("learner_fingerprint"), stream.meta.get("learner_fingerprint")
    if code is not None and stream_code is not None and code != stream_code:
        return [f"{where}: played by other code of the learner ({code}) than the stream ({stream_code})"]
    return []


def _spec(learner: Mapping[str, object]) -> dict[str, object]:
    """A learner as recorded, its arguments ``{}`` when none (earlier runs recorded ``None`` from Python)."""
    kwargs = learner.get("kwargs")
    return {**learner, "kwargs": dict(kwargs) if isinstance(kwargs, Mapping) else {}}


def _installed_digests(track: str) -> dict[str, str]:
    """The digests of a track's sources here: the data installed, or the rule pack given (``--pack``)."""
    pack = pack_in_use(track)
    return {"manifest_sha256": pack.digest} if pack is not None else source_digests(track)


def canonical_problems(run: LoadedRun, allow_ablation: bool) -> list[str]:
    """What keeps a run from counting on the leaderboard: plug-ins, a time limit, or any deviation.

    The deviations are those of `LoadedRun.protocol`, the block recomputed from the run's
    rebuilt schedule, not the one its ``meta.json`` holds.

    Plug-ins and time limits are refused even in an ablation: they change what an instance costs.
    """
    assert run.meta is not None
    where = run.path / "meta.json"
    problems = []
    if run.meta.get("plugins"):
        plugins = run.meta["plugins"]
        problems.append(f"{where}: played with plug-ins {plugins}: a result's runs are played with none")
    if run.meta.get("instance_time_limit") is not None:
        problems.append(
            f"{where}: played with an instance time limit of {run.meta['instance_time_limit']} s: "
            f"a result's runs are played without one"
        )
    # The verdict recomputed from the rebuilt schedule (check_run), never the block the run wrote.
    protocol = run.protocol
    if not allow_ablation and not (protocol is not None and protocol.get("canonical", False)):
        deviations = (
            "; ".join(protocol.get("deviations", []) if protocol else []) or "its schedule does not rebuild"
        )
        problems.append(f"{where}: not canonical ({deviations}); check an ablation with --ablation")
    return problems


def cross_checks(
    runs: dict[str, LoadedRun], submission: Mapping[str, object], allow_ablation: bool
) -> list[str]:
    """The runs of a submission against each other, the leaderboard's rules and the data installed here.

    Returns:
        One line per problem.
    """
    stream = runs.get(Play.STREAM)
    if stream is None or stream.meta is None:
        return []
    problems: list[str] = []
    for role, run in runs.items():
        if run.meta is None:
            continue
        problems += canonical_problems(run, allow_ablation)
        problems += _expect(run, role, stream.meta["schedule"]) if role != Play.STREAM else []
        problems += _same_learner(run, role, stream, submission) if role != Play.STREAM else []
        if role in TESTS and run.salt != stream.salt:
            salt = run.path / "alias-salt"
            problems.append(
                f"{salt}: not the stream's salt: the {role} test was played under other task names"
            )
        if run.meta.get("versions") != stream.meta.get("versions"):
            problems.append(
                f"{run.path / 'meta.json'}: versions {run.meta.get('versions')} differ from the stream's"
            )
    installed = _installed_digests(stream.meta["schedule"].get("track", ""))
    sources = stream.meta.get("versions", {}).get("sources", {})
    for kind, source in sources.items():
        recorded = source.get("versions", {})
        for key in sorted(k for k in recorded if k.endswith("_sha256")):
            if recorded[key] != installed.get(key):
                problems.append(
                    f"{stream.path / 'meta.json'}: {kind} source {key} differs from the data installed here"
                )
    return problems
