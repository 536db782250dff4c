"""Verification: a learner rerun from its code, whole, at a seed of its own, where it keeps only files.

``verify`` plays the whole protocol of a configuration with the learner built from its import path
with no arguments, every play in processes of the learner's own
([`continual_arc.play.remote`][continual_arc.play.remote]):

* the stream, in one process, its state saved as files after every round;
* each test one instance at a time, each instance in a new process that starts from the files
  the stream left, so that a learner that remembers only in process memory starts the tests from
  nothing;
* the reset's stream and tests, a new process (from nothing) before every instance.

The learner's processes never get the pack's folder or the data directory: the pack is loaded by
this process alone (nothing the child is given names its path), the child's environment names an
empty data directory of its own ([`learner_env`][continual_arc.submit.verify.learner_env]), and every process
runs in the kernel sandbox ([`confine`][continual_arc.submit.confine]): it reads only the system's folders and
its Python's, writes only its own folder, and reaches no network but the tracking proxy's port, if one is
given. ``verification.json`` records what the kernel put in force for each kind of process;
docs/VERIFY.md says what is and is not isolated.

The seed is drawn when not given, and is never a canonical one (0, 1, 2), whose instances anyone
can know. On a track's public tasks the result is *reproduced*; on a rule pack nobody outside the
verifier has seen, *verified*. The directory written is a protocol directory (``check`` accepts it,
``verification.json`` saying which) with ``work/``, each process's working folder and log.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import __version__
from ..core.config import CANONICAL_SEEDS, TESTS, Config
from ..core.errors import ContinualArcError
from ..core.files import atomic_write_json, read_json
from ..core.learner_ref import LearnerRef
from ..core.records import CodeFingerprint, JSONObject, JSONValue, Play
from ..core.sandbox import Limits, ProxyBridge, stop_on_interrupt
from ..core.sandbox.zygote import Zygote
from ..data.directory import DATA_ENV
from ..play.aliases import SALT_FILE
from ..play.declared import run_option_env
from ..play.learner import SavesState
from ..play.options import RunOptions, RunProgress
from ..play.remote import CHILD_MODULE, RemoteLearner, remote_learner
from ..play.rundir import read_records
from ..play.runner import run
from ..protocol.conclude import ProtocolDocument, conclude
from ..protocol.floor import FLOOR_PLAYS
from ..protocol.jobs import ProgressLines, final_state
from ..protocol.options import ProtocolOptions
from ..protocol.plan import PLAN, stream_start
from ..protocol.plays import PROTOCOL_PLAYS, schedules_for
from ..protocol.spec import ProtocolSpec
from ..protocol.unplayed import removed_if_unplayed
from ..stream.schedule import Schedule
from .confine import confinement, in_force, limits_block, precompile, proxy_bridge, sandboxed_env, with_proxy
from .learner_code import LearnerCodeJSON, code_json, learner_code
from .signing import SigningError, SigningKey, file_digests, sign_directory
from .taught import EXPERIMENT_REFUSAL, experiment_of

__all__ = [
    "KEPT_ENV",
    "VERIFICATION",
    "ExperimentRefusedError",
    "VerifyOptions",
    "draw_seed",
    "learner_env",
    "verify",
    "verify_statement",
]

KEPT_ENV = (
    "PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONPATH", "PYTHONHASHSEED",
    "PYTHONDONTWRITEBYTECODE", "PYTHONUTF8", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
    "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
    "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", *run_option_env(),
)  # fmt: skip
"""The variables of the verifying process a learner's process is given: what finds its code and
sets how its libraries compute (and what the installed run options set, such as the baselines'
``--no-search-cache``), nothing that names a folder, a key or the command that runs it."""

VERIFICATION = "verification.json"
"""The file that marks a protocol directory as a verification's, and says how it was made."""


class ExperimentRefusedError(ContinualArcError):
    """The learner verified turned out an experiment (its teacher played instances uncharged): refused."""


def draw_seed() -> int:
    """A seed nobody could have played before: drawn afresh, never a canonical one."""
    while (seed := secrets.randbelow(2**31)) in CANONICAL_SEEDS:
        continue
    return seed


@dataclass(frozen=True)
class VerifyOptions:
    """What to verify.

    Attributes:
        learner: the learner's import path, ``module:Class``; it is built with no arguments.
        config: the configuration played (a track's public tasks, or a rule pack's).
        out: the protocol directory written.
        seed: the seed (``None``: drawn by [`draw_seed`][continual_arc.submit.verify.draw_seed]).
        mode: ``reproduced`` (a track's public tasks) or ``verified`` (a pack nobody has seen).
        about: what the result is about, recorded in ``verification.json`` (the pack and its
            manifest's hash, or the track).
        prefix: a command every learner process is started under (inside the sandbox), or nothing.
        env: the environment the learner processes' is taken from (default: this one's): only the
            variables of [`KEPT_ENV`][continual_arc.submit.verify.KEPT_ENV] and ``pass_env`` are kept, and the
            data directory is an empty one ([`learner_env`][continual_arc.submit.verify.learner_env]).
        pass_env: more variables of ``env`` the learner's processes are given.
        student: the model the learner plays with, as the submission names it (``none``).
        teacher: the model that teaches it, as the submission names it (``None``: none).
        resamples: bootstrap resamples of the final numbers.
        progress: where progress goes (default: prefixed lines on stderr).
        sandbox: start every learner process in the kernel sandbox (off only to compare).
        withheld: folders the learner must not reach besides the data directory (the pack's).
        proxy: the tracking proxy's URL, the one address the learner may reach (``None``: none).
        process_seconds: the wall-time cap of each learner process (``None``: no cap).
        limits: what each sandboxed learner process may use (memory, processes, file size,
            working folder, log, saved state); one over a limit fails its instance.
        sign_with: the key that signs the statement of what was verified (``None``: unsigned,
            which stands as reported).
        repository: the repository the learner was installed from, named in the statement.
        commit: the commit it was installed at, named in the statement.
        code: the learner's code as this process read it (``None``: read by
            [`verify`][continual_arc.submit.verify.verify]).
    """

    learner: str
    config: Config
    out: Path
    seed: int | None = None
    mode: str = "reproduced"
    about: Mapping[str, JSONValue] = field(default_factory=dict)
    prefix: Sequence[str] = ()
    env: Mapping[str, str] | None = None
    pass_env: Sequence[str] = ()
    student: str = "none"
    teacher: str | None = None
    resamples: int = 10_000
    progress: Callable[[RunProgress], None] | None = None
    sandbox: bool = True
    withheld: Sequence[Path] = ()
    proxy: str | None = None
    process_seconds: float | None = 24 * 3600.0
    limits: Limits = field(default_factory=Limits)
    sign_with: SigningKey | None = None
    repository: str | None = None
    commit: str | None = None
    code: LearnerCodeJSON | None = None


def _fingerprint(options: VerifyOptions) -> CodeFingerprint | None:
    """The fingerprint every run records: this process's reading of the code, not the learner's word."""
    code = options.code
    if code is None:
        return None
    return {"package": code["package"], "version": code["version"], "sources_sha256": code["sources_sha256"]}


def learner_env(out: Path, base: Mapping[str, str] | None = None, keep: Sequence[str] = ()) -> dict[str, str]:
    """The learner processes' environment: ``base``'s `KEPT_ENV` and ``keep``, no data.

    ``base`` defaults to this process's environment. Anything else in it (the verifying command's
    folders, a model key, the real data directory) is left out, so that a learner cannot read
    where it runs or what it is verified on. The data directory holds the answers of every public
    task fetched, so the learner is pointed at an empty one under ``out/work``; what it needs to
    run (its packages) comes from its Python.
    """
    source = os.environ if base is None else base
    env = {name: source[name] for name in (*KEPT_ENV, *keep) if name in source}
    empty = out / "work" / "no-data"
    empty.mkdir(parents=True, exist_ok=True)
    env[DATA_ENV] = str(empty.resolve())
    return env


def _ref(options: VerifyOptions) -> LearnerRef:
    return LearnerRef(options.learner)  # a verified learner is built with no arguments


def _env(options: VerifyOptions, bridge: ProxyBridge | None) -> dict[str, str]:
    env = learner_env(options.out, options.env, options.pass_env)
    env = sandboxed_env(env) if options.sandbox else env
    return with_proxy(env, options.proxy) if bridge is not None and options.proxy is not None else env


@contextlib.contextmanager
def _zygote(options: VerifyOptions, bridge: ProxyBridge | None) -> Iterator[Zygote | None]:
    """The fork server every sandboxed learner process is forked from (none unsandboxed or prefixed)."""
    if not options.sandbox or options.prefix:
        yield None
        return
    log = options.out / "work" / "logs" / "zygote.txt"
    with Zygote(_env(options, bridge), log, preload=(CHILD_MODULE,)) as zygote:
        yield zygote


def _learner(
    options: VerifyOptions,
    logs: str,
    *,
    restart: bool,
    start: Path | None,
    bridge: ProxyBridge | None,
    zygote: Zygote | None,
) -> RemoteLearner:
    """The learner in processes of its own, in the sandbox, each in a new folder named at random."""
    env = _env(options, bridge)
    rights = None
    if options.sandbox:
        withheld = list(options.withheld)
        rights = confinement(
            options.learner, env, withheld=withheld, bridge=bridge, wall_seconds=options.process_seconds,
            empty_data=options.out / "work" / "no-data", limits=options.limits,
        )  # fmt: skip
    learner = remote_learner(
        _ref(options),
        options.out / "work",
        logs=options.out / "work" / "logs",
        label=logs,  # each process's log folder named at random, work/logs/index.jsonl naming its play
        prefix=options.prefix,
        env=env,
        restart_on_reset=restart,
        start_state=start,
        confinement=rights,
        zygote=zygote,
        code=_fingerprint(options),
    )
    if learner.hello.get("teacher_plays_first"):  # refused before it plays: its teacher would play uncharged
        learner.close()
        raise ExperimentRefusedError(EXPERIMENT_REFUSAL)
    return learner


def _fresh_state(
    options: VerifyOptions, bridge: ProxyBridge | None, zygote: Zygote | None
) -> tuple[Path | None, list[JSONObject]]:
    """The saved state of a freshly built learner (``None`` if it saves none), and its process's report.

    Every process of the protocol starts from a saved state through ``load_state``: the stream's
    and the resets' from this one, the tests' from the end of the stream. So a reset starts exactly
    as a learner's process does, and cannot tell it is one by how it was started. Made once, kept
    in ``work/fresh-state`` for a resumed verification.
    """
    target = options.out / "work" / "fresh-state"
    if target.is_dir():
        return target, []
    learner = _learner(options, "fresh-state", restart=False, start=None, bridge=bridge, zygote=zygote)
    try:
        if not isinstance(learner, SavesState):  # the remote learner has it if its learner has
            return None, learner.sandbox_reports()
        partial = target.with_name("fresh-state.partial")
        shutil.rmtree(partial, ignore_errors=True)
        learner.save_state(partial)
        partial.rename(target)  # whole or not at all: a resume finds it complete, or makes it again
    finally:
        learner.close()
    reports: list[JSONObject] = learner.sandbox_reports()
    return target, reports


def _play(
    options: VerifyOptions,
    name: str,
    schedule: Schedule,
    *,
    restart: bool,
    start: Path | None,
    bridge: ProxyBridge | None,
    zygote: Zygote | None,
) -> list[JSONObject]:
    """One play: the learner in processes of its own, resumed where a previous call stopped.

    Returns what the sandbox put in force for each process it started.
    """
    learner = _learner(options, name, restart=restart, start=start, bridge=bridge, zygote=zygote)
    progress = options.progress or ProgressLines(name)
    try:
        out = options.out / PROTOCOL_PLAYS[name]
        played = RunOptions(resume=True, learner=_ref(options), progress=progress)
        run(learner.learner(), schedule, out, played)
    finally:
        learner.close()
    reports: list[JSONObject] = learner.sandbox_reports()
    reports += [{"limit_hit": hit, "play": name} for hit in learner.limit_hits]
    return reports


def _play_all(
    options: VerifyOptions,
    schedules: Mapping[str, Schedule],
    bridge: ProxyBridge | None,
    zygote: Zygote | None,
) -> dict[str, list[JSONObject]]:
    """Every play, one by one (the stream, its tests, the resets); the sandbox's reports by kind."""

    def play(name: str, restart: bool, start: Path | None) -> list[JSONObject]:
        return _play(
            options, name, schedules[name], restart=restart, start=start, bridge=bridge, zygote=zygote
        )

    reports: dict[str, list[JSONObject]] = {Play.STREAM: [], "test": [], "reset": []}
    fresh, reports[Play.STREAM] = _fresh_state(options, bridge, zygote)
    for planned in PLAN.one_by_one():
        # Every process starts from saved files: a test from the stream's end, any other from fresh.
        state = final_state(options.out / PROTOCOL_PLAYS[Play.STREAM]) if planned.from_stream else fresh
        _, salt = stream_start(options.out, planned, state)
        target = options.out / PROTOCOL_PLAYS[planned.name]
        if salt is not None and not (target / SALT_FILE).exists():
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy(salt, target / SALT_FILE)
        kind = "reset" if planned.reset else "test" if planned.from_stream else Play.STREAM
        reports[kind] += play(planned.name, planned.name != Play.STREAM, state)
        _refuse_experiment(target)
    return reports


def _refuse_experiment(run_dir: Path) -> None:
    """Stop a verification whose learner's teacher played instances uncharged: it is no learner.

    Raises:
        ExperimentRefusedError: the run's records are marked as such an experiment.
    """
    if experiment_of(read_records(run_dir, allow_partial_tail=True)) is not None:
        raise ExperimentRefusedError(EXPERIMENT_REFUSAL)


def _resolved_seed(options: VerifyOptions) -> int:
    """The seed: the one given, the one an earlier call of the same directory drew, or a new one."""
    marker = options.out / VERIFICATION
    if options.seed is not None:
        return options.seed
    if marker.exists():
        return int(read_json(marker)["seed"])
    return draw_seed()


def _write_submission(options: VerifyOptions, seed: int) -> None:
    """The submission of the rerun: its runs, the learner as its code, and who ran it."""
    atomic_write_json(
        options.out / "submission.json",
        {
            "name": f"{options.learner.rsplit(':', 1)[-1]}, {options.mode} at seed {seed}",
            "learner": options.learner,
            "learner_kwargs": {},
            "student": options.student,
            "effort": None,
            "teacher": options.teacher,
            "code": options.learner,
            "contact": "continual-arc verify",
            Play.STREAM: PROTOCOL_PLAYS[Play.STREAM],
            "reset": PROTOCOL_PLAYS[Play.STREAM_RESET],
            "tests": {
                test: {
                    "run": PROTOCOL_PLAYS[Play.of(test)],
                    "reset": PROTOCOL_PLAYS[Play.of(test, reset=True)],
                    "bare": None,
                    "floor": FLOOR_PLAYS[test] if (options.out / FLOOR_PLAYS[test]).is_dir() else None,
                }
                for test in TESTS
            },
            "notes": f"written by continual-arc verify ({options.mode}); see verification.json",
        },
    )


def verify_statement(options: VerifyOptions, seed: int, isolation: Mapping[str, JSONValue]) -> JSONObject:
    """The statement a verifier signs: what it verified, every file of the directory by its SHA-256.

    Covered: every file of ``options.out`` but ``work/`` (each learner process's folder and log,
    read by no number) and ``signature.json`` itself.
    """
    code = options.code or _read_code(options)
    return {
        "kind": "verify",
        "mode": options.mode,
        "project": {"name": "continual-arc", "version": __version__},
        "config": options.config.name,
        "seed": seed,
        "about": dict(options.about),
        "isolation": dict(isolation),
        "learner": {"class": options.learner, "kwargs": {}, "code": code_json(code)},
        "files": dict(file_digests(options.out)),
    }


def _read_code(options: VerifyOptions) -> LearnerCodeJSON:
    """The learner's code as this process finds it where the learner's processes will (their path first)."""
    path = (os.environ if options.env is None else options.env).get("PYTHONPATH", "")
    search = [folder for folder in path.split(os.pathsep) if folder]
    return learner_code(options.learner, repository=options.repository, commit=options.commit, search=search)


def _key_outside(options: VerifyOptions) -> None:
    key = options.sign_with
    if key is not None and key.path is not None and options.out.resolve() in key.path.resolve().parents:
        raise SigningError(f"the private key {key.path} lies inside {options.out}, which would ship it")


def verify(options: VerifyOptions) -> ProtocolDocument:
    """Play and read the whole protocol as verification does; ``protocol.json``'s content.

    A learner that saves no state plays each test from nothing, as its memory lives in its process.
    A call that fails before any play started removes what it wrote into a folder that was new or
    empty ([`removed_if_unplayed`][continual_arc.protocol.unplayed.removed_if_unplayed]). With ``sign_with``,
    the directory is signed last ([`verify_statement`][continual_arc.submit.verify.verify_statement]).
    """
    _key_outside(options)
    if options.code is None:  # read here, before any learner process runs, and never asked of one
        options = replace(options, code=_read_code(options))
    seed = _resolved_seed(options)
    marker = {"mode": options.mode, "seed": seed, "learner": options.learner, "about": dict(options.about)}
    with removed_if_unplayed(options.out):
        options.out.mkdir(parents=True, exist_ok=True)
        atomic_write_json(options.out / VERIFICATION, {**marker, "config": options.config.name})
        _write_submission(options, seed)
        schedules = schedules_for(options.config, seed, test_width=1)
        for name, schedule in schedules.items():
            schedule.save(options.out / "schedules" / f"{name}.json")
        precompile(options.learner)
        with stop_on_interrupt(), proxy_bridge(options.proxy) as bridge, _zygote(options, bridge) as zygote:
            reports = _play_all(options, schedules, bridge, zygote)
    cap = options.process_seconds
    isolation = {
        kind: in_force(found, sandbox=options.sandbox, proxy=options.proxy, wall_seconds=cap)
        for kind, found in reports.items()
    }
    limits = limits_block(options.limits, reports, sandbox=options.sandbox)
    atomic_write_json(
        options.out / VERIFICATION,
        {**marker, "config": options.config.name, "isolation": isolation, "limits": limits},
    )
    played = ProtocolSpec(_ref(options), options.config, seed, options.config.users)
    document = conclude(played, ProtocolOptions(options.out, resamples=options.resamples))
    _write_submission(options, seed)  # again: it names the track's floor that conclude copied in
    if options.sign_with is not None:
        sign_directory(options.out, verify_statement(options, seed, isolation), options.sign_with)
    return document
