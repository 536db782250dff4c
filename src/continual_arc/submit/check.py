"""The checker of a submitted result: trust nothing in it that can be recomputed.

``check_submission(result_dir)`` reads ``submission.json`` and every run it names (the learner's
stream, its reset's stream, and each test's run, reset and bare-model runs), checks each run on
its own (:mod:`continual_arc.submit.check_run`), then checks the runs against each other:

* each plays the schedule its role needs (the stream, the same stream reset before every slot,
  each test at full width, each test's reset at width 1), at the stream's configuration, seed
  and number of users;
* the tests were played under the stream's task names (the same ``alias-salt``);
* the reset and the tests are runs of the stream's learner with the same arguments, and the bare
  runs are the bare model's, on the model the submission names;
* every run was played by the same release on the same data, which are the ones installed here.

It then computes the numbers the leaderboard shows: the place on the plane (the share saved on
each test, with intervals), T, the budget used and share solved of learner and reset, the
bare-model flag, and the share learned over the stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.config import TESTS
from ..core.files import RecordsError, read_json
from ..data.pinned import check_sources
from ..measure.compare import MismatchError, share_learned, share_saved
from .check_run import LoadedRun, check_run

__all__ = ["BARE_LEARNER", "CheckResult", "check_submission"]

BARE_LEARNER = "continual_arc_baselines.systems.bare:BareModelLearner"
"""The import path of the bare model's learner."""


@dataclass
class CheckResult:
    """What the checker found.

    Attributes:
        ok: whether everything holds.
        problems: one line per problem: the file, the slot or field, and what was expected.
        numbers: the leaderboard's numbers (``None`` when the runs they need are unusable).
        runs: the run directory of each role.
    """

    ok: bool
    problems: list[str]
    numbers: dict[str, Any] | None
    runs: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {"ok": self.ok, "problems": self.problems, "numbers": self.numbers, "runs": self.runs}


def _roles(submission: Mapping[str, Any]) -> dict[str, str | None]:
    tests = submission.get("tests") or {}
    roles: dict[str, str | None] = {
        "stream": submission.get("stream", "."),
        "stream-reset": submission.get("reset"),
    }
    for test in TESTS:
        entry = tests.get(test) or {}
        roles[test] = entry.get("run")
        roles[f"{test}-reset"] = entry.get("reset")
        roles[f"{test}-bare"] = entry.get("bare")
    return roles


def _resolve(root: Path, name: str) -> Path | None:
    """A run named in submission.json: relative to the submission, to the working directory, or absolute."""
    for candidate in (root / name, Path(name)):
        if (candidate / "meta.json").exists() or (candidate / "records.jsonl").exists():
            return candidate
    return None


def _expect(run: LoadedRun, role: str, stream: Mapping[str, Any]) -> list[str]:
    """The schedule a role needs, at the stream's configuration, seed and users."""
    assert run.meta is not None
    meta, where = run.meta["schedule"], run.path / "meta.json"
    test = next((t for t in TESTS if role.startswith(t)), None)
    wanted = {
        "test": test,
        "width": 1 if role.endswith(("-reset", "-bare")) and test else None,
        "reset_each": role == "stream-reset",
        "config": stream["config"],
        "seed": stream["seed"],
        "configuration": stream["configuration"],
    }
    if test is None:
        wanted.update(order=stream["order"], epilogue=stream["epilogue"], rounds_cut=stream["rounds_cut"])
    return [
        f"{where}: schedule {key} is {meta.get(key)!r}, but the {role} run needs {value!r}"
        for key, value in wanted.items()
        if meta.get(key) != value
    ]


def _same_learner(run: LoadedRun, role: str, stream: LoadedRun, submission: Mapping[str, Any]) -> list[str]:
    assert run.meta is not None and stream.meta is not None
    learner, where = run.meta.get("learner", {}), run.path / "meta.json"
    if role.endswith("-bare"):
        problems = (
            []
            if learner.get("class") == BARE_LEARNER
            else [f"{where}: {learner.get('class')} is not {BARE_LEARNER}"]
        )
        model = (learner.get("kwargs") or {}).get("model")
        if submission.get("student") and model != submission["student"]:
            problems.append(
                f"{where}: the bare model is {model!r}, but the student is {submission['student']!r}"
            )
        return problems
    theirs = stream.meta.get("learner", {})
    if learner != theirs:
        return [
            f"{where}: played by {learner}, the stream by {theirs}: the {role} run must be the same learner"
        ]
    return []


def _cross_checks(runs: dict[str, LoadedRun], submission: Mapping[str, Any]) -> list[str]:
    stream = runs.get("stream")
    if stream is None or stream.meta is None:
        return []
    problems: list[str] = []
    for role, run in runs.items():
        if run.meta is None:
            continue
        problems += _expect(run, role, stream.meta["schedule"]) if role != "stream" else []
        problems += _same_learner(run, role, stream, submission) if role != "stream" else []
        if role in TESTS and run.salt != stream.salt:
            salt = run.path / "alias-salt"
            problems.append(
                f"{salt}: not the stream's salt: the {role} test was played under other task names"
            )
        if run.meta.get("versions") != stream.meta.get("versions"):
            problems.append(
                f"{run.path / 'meta.json'}: versions {run.meta.get('versions')} differ from the stream's"
            )
    installed = check_sources()
    sources = stream.meta.get("versions", {}).get("sources", {})
    for kind, source in sources.items():
        recorded = source.get("versions", {})
        for key in ("rearc_sha256", "arc1_json_sha256"):
            if key in recorded and recorded[key] != installed.get(key):
                problems.append(
                    f"{stream.path / 'meta.json'}: {kind} source {key} differs from the data installed here"
                )
    return problems


def _numbers(runs: dict[str, LoadedRun], resamples: int, seed: int) -> dict[str, Any] | None:
    def records(role: str) -> list[dict[str, Any]] | None:
        run = runs.get(role)
        return run.records if run is not None else None

    out: dict[str, Any] = {}
    for test in TESTS:
        run, reset = records(test), records(f"{test}-reset")
        if run is None or reset is None:
            return None
        bare = [b for b in (records(f"{test}-bare"),) if b is not None]
        out[test] = share_saved(
            [run], [reset], seed=seed, test=test, bare_plays=bare, resamples=resamples
        ).to_json()
    stream, stream_reset = records("stream"), records("stream-reset")
    if stream is not None and stream_reset is not None:
        out["learned"] = share_learned(stream, stream_reset, seed=seed, resamples=resamples).to_json()
    stream_run = runs["stream"]
    out["protocol"] = stream_run.meta["protocol"] if stream_run.meta else None
    return out


def check_submission(
    root: Path | str, *, regenerate: bool = True, resamples: int = 10_000, seed: int = 0
) -> CheckResult:
    """Check a result directory holding ``submission.json``.

    Args:
        root: the result directory (``results/<track>/<name>/``).
        regenerate: draw every instance again to check each submitted grid's verdict.
        resamples: bootstrap resamples of the numbers.
        seed: the bootstrap's seed.
    """
    root = Path(root)
    try:
        submission = read_json(root / "submission.json")
    except FileNotFoundError:
        return CheckResult(False, [f"{root / 'submission.json'}: missing"], None)
    except RecordsError as err:
        return CheckResult(False, [str(err)], None)
    problems: list[str] = []
    runs: dict[str, LoadedRun] = {}
    for role, name in _roles(submission).items():
        if name is None:
            if not role.endswith("-bare"):
                problems.append(f"{root / 'submission.json'}: names no {role} run")
            continue
        path = _resolve(root, name)
        if path is None:
            problems.append(f"{root / 'submission.json'}: the {role} run {name!r} does not exist")
            continue
        runs[role], found = check_run(path, regenerate=regenerate)
        problems += found
    problems += _cross_checks(runs, submission)
    numbers = None
    if all(r.records is not None for r in runs.values()):
        try:
            numbers = _numbers(runs, resamples, seed)
        except MismatchError as err:
            problems.append(f"{root}: {err}")
    return CheckResult(not problems, problems, numbers, {role: str(run.path) for role, run in runs.items()})
