"""The checker of a submitted result: trust nothing in it that can be recomputed.

``check_submission(result_dir)`` reads ``submission.json`` and every run it names (the learner's
stream, its reset's stream, and each test's run, reset and bare-model runs), checks each run on
its own ([`continual_arc.submit.check_run`][continual_arc.submit.check_run]), then checks the runs against
each other:

* each plays the schedule its role needs (the stream, the same stream reset before every slot,
  each test at full width, each test's reset at width 1), at the stream's configuration, seed
  and number of users;
* the tests were played under the stream's task names (the same ``alias-salt``);
* the reset and the tests are runs of the stream's learner with the same arguments, and the bare
  runs are the bare model's, on the model the submission names;
* every run was played by the same release on the same data, which are the ones installed here;
* a ``verification.json`` switches the canonical check off only when a trusted signature vouches
  for it and it is tied to the runs, and the learner ``submission.json`` names, the runs'
  fingerprints and ``protocol.json`` are what the runs give
  ([`continual_arc.submit.bind`][continual_arc.submit.bind]).

The result's standing (verified, reproduced or reported, with its reason) comes from its
signature alone ([`standing_of`][continual_arc.submit.standing.standing_of]), never from a file it holds.

It then computes the numbers the leaderboard shows: the place on the plane (the share saved on
each test, with intervals), T, the budget used and share solved of learner and reset, the
bare-model flag, the share learned over the stream, and the flags on the reset reference
([`continual_arc.measure.reset_flags`][continual_arc.measure.reset_flags]).

The floor flag reads, on each test, the bare model's run when the submission names one (a model
learner), else the track's stateless floor when the submission names a ``floor`` run: never that
run itself, which its author could have weakened, but the checker's own floor
([stream_floors][continual_arc.protocol.floor.stream_floors]: its cache, or played here), and a
named floor run that differs from it is a problem. A result that names neither is read with the
floor "not played", which ``check`` and the leaderboard say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..core.config import TESTS
from ..core.documents import DocumentError
from ..core.files import RecordsError
from ..core.jsonable import as_json
from ..core.records import JSONObject, Phase, Play, Record
from ..core.result_files import Submission, read_submission, read_verification
from ..measure.compare import MismatchError, TestComparison, share_learned, share_saved
from ..measure.ledger import OutsideJSON, ledger_calls, outside_spend, read_ledger
from ..measure.report import run_resources
from ..measure.reset_flags import FloorPlay, reset_flags
from ..protocol.floor import TrackFloor, floor_differences, stream_floors
from ..tracks.pack import track_name
from ..tracks.registry import pack_in_use
from .bind import learner_problems, protocol_json_problems, verification_problems
from .check_run import LoadedRun, check_run
from .numbers import CheckNumbers
from .roles import cross_checks
from .standing import Standing, TrustedKeys, load_trusted, standing_json, standing_of
from .taught import result_experiment, teacher_problems

__all__ = ["CheckNumbers", "CheckResult", "check_submission"]


@dataclass
class CheckResult:
    """What the checker found.

    Attributes:
        ok: whether everything holds.
        problems: one line per problem: the file, the slot or field, and what was expected.
        numbers: the leaderboard's numbers (``None`` when the runs they need are unusable).
        runs: the run directory of each role.
        unfilled: in a draft check, the fields of ``submission.json`` still to fill in.
        records_only: some run was stored without trajectories and checked without replaying
            them (only when the check allowed it).
        standing: the result's standing, from its signature (``None``: not read).
        teacher: the model that teaches the student, as ``submission.json`` names it (``None``: none).
        experiment: the experiment the runs are marked with
            ([UNCHARGED_TEACHER][continual_arc.core.teacher.UNCHARGED_TEACHER]), ``None`` for a learner:
            an experiment is accepted as such, listed apart and never verified.
    """

    ok: bool
    problems: list[str]
    numbers: CheckNumbers | None
    runs: dict[str, str] = field(default_factory=dict)
    unfilled: list[str] = field(default_factory=list)
    records_only: bool = False
    standing: Standing | None = None
    teacher: str | None = None
    experiment: str | None = None

    def to_json(self) -> JSONObject:
        """The result as JSON; the optional fields (``unfilled``, ``teacher``, ...) only when set."""
        result: JSONObject = {
            "ok": self.ok,
            "problems": as_json(self.problems),
            "numbers": as_json(self.numbers),
            "runs": as_json(self.runs),
        }
        if self.unfilled:
            result["unfilled"] = as_json(self.unfilled)
        if self.records_only:
            result["records_only"] = True
        if self.standing is not None:
            result["standing"] = as_json(standing_json(self.standing))
        if self.teacher is not None:
            result["teacher"] = self.teacher
        if self.experiment is not None:
            result["experiment"] = self.experiment
        return result


_REQUIRED = {
    "student": "model that plays (an OpenRouter id, or org/name@commit; none for a model-free learner)",
    "code": "learner's code (a public repository at a commit)",
    "contact": "person to ask about the result",
}


def _roles(submission: Mapping[str, object]) -> dict[str, str | None]:
    tests = _object(submission.get("tests"))
    roles: dict[str, str | None] = {
        Play.STREAM: _name(submission.get(Play.STREAM, ".")),
        Play.STREAM_RESET: _name(submission.get("reset")),
    }
    for test in TESTS:
        entry = _object(tests.get(test))
        roles[Play.of(test)] = _name(entry.get("run"))
        roles[Play.of(test, reset=True)] = _name(entry.get("reset"))
        roles[f"{test}-bare"] = _name(entry.get("bare"))
        roles[f"{test}-floor"] = _name(entry.get("floor"))
    return roles


_OPTIONAL = ("-bare", "-floor")
"""The roles a submission may leave out: the bare model's runs and the stateless floor's."""


def _object(value: object) -> Mapping[str, object]:
    """A field of ``submission.json`` that holds an object, or nothing (``{}``) when it holds none."""
    return value if isinstance(value, Mapping) else {}


def _name(value: object) -> str | None:
    """A run ``submission.json`` names (a folder), or ``None`` when it names none."""
    return None if value is None else str(value)


def _resolve(root: Path, name: str) -> Path | None:
    """A run named in submission.json: relative to the submission, to the working directory, or absolute."""
    for candidate in (root / name, Path(name)):
        if (candidate / "meta.json").exists() or (candidate / "records.jsonl").exists():
            return candidate
    return None


def _floors(
    runs: Mapping[str, LoadedRun], submission: Mapping[str, object], play: bool
) -> tuple[dict[str, FloorPlay | None], list[str]]:
    """Each test's floor as the flag reads it, and the problems of a floor run the submission names.

    The bare model's run when one is named (a model learner's floor); else, when a floor run is
    named, the checker's own floor, played here unless its cache holds it (``play`` false: the
    cache only), against which the named run is compared; else none.
    """
    stream = runs.get(Play.STREAM)
    floors: dict[str, FloorPlay | None] = {str(test): None for test in TESTS}
    named = [str(t) for t in TESTS if f"{t}-bare" not in runs and f"{t}-floor" in runs]
    own: dict[str, TrackFloor | None] = {}
    if named and stream is not None and stream.meta is not None:
        own = stream_floors(stream.meta, play=play)
    problems: list[str] = []
    for test in TESTS:
        bare = runs.get(f"{test}-bare")
        if bare is not None and bare.records is not None:
            floors[test] = FloorPlay(f"the bare model, {submission.get('student')}", bare.records)
            continue
        copy, mine = runs.get(f"{test}-floor"), own.get(test)
        if copy is None or mine is None:
            continue
        ours = mine.records()
        problems += [
            f"{copy.path}: not the track's floor on the {test} test: {d}"
            for d in floor_differences(copy.records or [], ours)
        ]
        floors[test] = FloorPlay(mine.learner, ours)
    return floors, problems


def _numbers(
    runs: dict[str, LoadedRun], resamples: int, seed: int, floors: Mapping[str, FloorPlay | None]
) -> CheckNumbers | None:
    def records(role: str) -> list[Record] | None:
        run = runs.get(role)
        return run.records if run is not None else None

    tests: dict[str, TestComparison] = {}
    for test in TESTS:
        run, reset = records(Play.of(test)), records(Play.of(test, reset=True))
        if run is None or reset is None:
            return None
        bare = [b for b in (records(f"{test}-bare"),) if b is not None]
        tests[test] = share_saved([run], [reset], seed=seed, test=test, bare_plays=bare, resamples=resamples)
    stream, stream_reset = records(Play.STREAM), records(Play.STREAM_RESET)
    both = stream is not None and stream_reset is not None
    # Beside the shares, as the bare-model flag: a reset that gives up, or is far worse at first sight.
    flags = reset_flags(
        held_out=records(Play.HELD_OUT) or [],
        held_out_reset=records(Play.HELD_OUT_RESET) or [],
        seen_reset=records(Play.SEEN_RESET) or [],
        stream=stream if both else None,
        stream_reset=stream_reset if both else None,
        floors=floors,
        seed=seed,
        resamples=resamples,
    )
    stream_run = runs[Play.STREAM]
    out: CheckNumbers = {
        "held-out": tests[Phase.HELD_OUT],
        "seen": tests[Phase.SEEN],
        "flags": flags,
        "protocol": stream_run.meta["protocol"] if stream_run.meta else None,
    }
    if stream is not None and stream_reset is not None:
        out["learned"] = share_learned(stream, stream_reset, seed=seed, resamples=resamples)
    return out


def _pack_missing(root: Path) -> str | None:
    """Why a result verified on a rule pack cannot be checked here: its pack was not given."""
    try:
        marker = read_verification(root / "verification.json")
    except (FileNotFoundError, RecordsError, DocumentError):
        return None  # none, or not a verification's marker: bind.verification_problems says so
    about = marker.get("about", {})
    if marker.get("mode") != "verified" or pack_in_use(track_name(str(about.get("pack")))) is not None:
        return None
    return (
        f"{root} was verified on rule pack {about.get('pack')} "
        f"(manifest sha256 {about.get('manifest_sha256')}): "
        "give that pack's folder with --pack DIR to check it"
    )


def _outside(ledger: Path, runs: Mapping[str, LoadedRun]) -> tuple[OutsideJSON | None, list[str]]:
    """The ledger against every run's counters: the spend outside any committed instance."""
    try:
        entries, skipped = read_ledger(ledger)
    except OSError as err:
        return None, [f"{ledger}: cannot be read ({err.strerror})"]
    counted: dict[str, float] = {}
    for run in runs.values():
        concurrent = bool(run.meta.get("concurrent_users")) if run.meta else False
        for key, value in run_resources(run.records or [], concurrent).items():
            counted[key] = counted.get(key, 0.0) + value
    outside = outside_spend(ledger_calls(entries, None, skipped), counted).to_json()
    problem = f"{ledger}: the runs' records count more calls or cost than the proxy's ledger holds"
    return outside, [problem] if outside["over_recorded"] else []


def _load_runs(
    root: Path, submission: Submission, *, regenerate: bool, records_only: bool
) -> tuple[dict[str, LoadedRun], list[str]]:
    """Each run the submission names, checked, by role; and the problems of the runs and their names."""
    runs: dict[str, LoadedRun] = {}
    problems: list[str] = []
    for role, name in _roles(submission).items():
        if name is None:
            if not role.endswith(_OPTIONAL):
                problems.append(f"{root / 'submission.json'}: names no {role} run")
            continue
        path = _resolve(root, name)
        if path is None:
            problems.append(f"{root / 'submission.json'}: the {role} run {name!r} does not exist")
            continue
        runs[role], found = check_run(path, regenerate=regenerate, records_only=records_only)
        problems += found
    return runs, problems


def _measured(
    root: Path,
    runs: dict[str, LoadedRun],
    submission: Submission,
    resamples: int,
    seed: int,
    *,
    play_floor: bool,
    ledger: Path | None,
) -> tuple[CheckNumbers | None, list[str]]:
    """The leaderboard's numbers from the runs (``None``: a run unusable), and what computing them found.

    Beside them: the floor runs' problems, ``protocol.json`` against the numbers, and with a
    ``ledger`` the spend outside the records.
    """
    problems: list[str] = []
    numbers = None
    if all(r.records is not None for r in runs.values()):
        try:
            floors, found = _floors(runs, submission, play_floor)
            problems += found
            numbers = _numbers(runs, resamples, seed, floors)
        except MismatchError as err:
            problems.append(f"{root}: {err}")
        except Exception as err:  # runs that hold no instance to compare: one line, never a traceback
            problems.append(f"{root}: the numbers cannot be computed from these runs ({err!r})")
            numbers = None
        if numbers is not None and Play.STREAM in runs:
            numbers["protocol"] = runs[Play.STREAM].protocol  # the verdict recomputed, not the one written
    problems += protocol_json_problems(root, runs, numbers)
    if ledger is not None and numbers is not None:
        numbers["outside_spend"], found = _outside(ledger, runs)
        problems += found
    return numbers, problems


def check_submission(
    root: Path | str,
    *,
    regenerate: bool = True,
    resamples: int = 10_000,
    seed: int = 0,
    allow_ablation: bool = False,
    ledger: Path | None = None,
    draft: bool = False,
    records_only: bool = False,
    trusted: TrustedKeys | None = None,
    play_floor: bool = True,
) -> CheckResult:
    """Check a result directory holding ``submission.json``.

    Args:
        root: the result directory (``results/<track>/<name>/``).
        regenerate: replay every instance through its environment, drawn again from its task and seed.
        resamples: bootstrap resamples of the numbers.
        seed: the bootstrap's seed.
        allow_ablation: accept runs that are not canonical (another configuration, seed, number
            of users or rules); plug-ins and time limits are refused regardless.
        ledger: the tracking proxy's ledger the runs were played through: its calls beyond what
            the records count (rounds that never committed) are shown as ``outside_spend``, and
            records counting more than it holds are a problem.
        draft: check a protocol directory as ``continual-arc protocol`` wrote it, before it is
            submitted: the fields a person fills in (``student``, ``code``, ``contact``) may be
            empty, and are listed in ``unfilled`` instead; runs that are not canonical are
            accepted, as ``allow_ablation`` does (a smoke configuration is never canonical).
        records_only: accept runs stored without their trajectories (the repository's ``runs/``):
            everything but the replay is checked, and the result says it is records only.
        trusted: the keys whose signatures give a standing (default
            [`load_trusted`][continual_arc.submit.standing.load_trusted]: the repository's and the reader's
            local key).
        play_floor: when the submission names a floor run and the data directory's cache lacks
            the track's floor, play it here (once: it is cached); ``False`` reads the cache only,
            and a floor not cached is "not played".
    """
    root = Path(root)
    standing = standing_of(root, load_trusted() if trusted is None else trusted)
    try:
        submission = read_submission(root / "submission.json")
    except FileNotFoundError:
        return CheckResult(False, [f"{root / 'submission.json'}: missing"], None, standing=standing)
    except (RecordsError, DocumentError) as err:
        return CheckResult(False, [str(err)], None, standing=standing)
    unplayable = _pack_missing(root)
    if unplayable:
        return CheckResult(False, [unplayable], None, standing=standing)
    how = _Checking(
        regenerate, resamples, seed, allow_ablation or draft, ledger, draft, records_only, play_floor
    )
    return _checked(root, submission, standing, how)


@dataclass(frozen=True)
class _Checking:
    """How a submission is checked, once read: the options of `check_submission`."""

    regenerate: bool
    resamples: int
    seed: int
    allow_ablation: bool
    ledger: Path | None
    draft: bool
    records_only: bool
    play_floor: bool


def _checked(root: Path, submission: Submission, standing: Standing, how: _Checking) -> CheckResult:
    """The check of a submission read: its runs, what ties them together, and their numbers."""
    unfilled = [name for name in _REQUIRED if not submission.get(name)]
    problems = (
        []
        if how.draft
        else [f"{root / 'submission.json'}: {n} is missing: name the {_REQUIRED[n]}" for n in unfilled]
    )
    runs, found = _load_runs(root, submission, regenerate=how.regenerate, records_only=how.records_only)
    problems += found
    # A verification plays at a seed of its own (and on a pack's rules): by design not canonical.
    # Only one a trusted signature vouches for, tied to these runs, switches the canonical check off.
    verified, found = verification_problems(root, runs.get(Play.STREAM), standing)
    problems += found
    problems += cross_checks(runs, submission, how.allow_ablation or verified)
    problems += learner_problems(runs, submission, root)
    problems += teacher_problems(runs, submission, root)
    numbers, found = _measured(
        root, runs, submission, how.resamples, how.seed, play_floor=how.play_floor, ledger=how.ledger
    )
    problems += found
    return CheckResult(
        not problems,
        problems,
        numbers,
        {role: str(run.path) for role, run in runs.items()},
        unfilled if how.draft else [],
        records_only=any(run.records_only for run in runs.values()),
        standing=standing,
        teacher=submission.get("teacher"),
        experiment=result_experiment(runs),
    )
