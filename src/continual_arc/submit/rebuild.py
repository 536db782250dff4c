"""A stored run played again from its code and its meta, and proved equal to what was stored.

The repository's ``runs/`` holds each canonical protocol's records, meta and summaries, never its
trajectories: the runs are deterministic, so anyone can make the trajectories again.
[`store_run`][continual_arc.submit.rebuild.store_run] keeps those files of a protocol directory;
[`rebuild_run`][continual_arc.submit.rebuild.rebuild_run] plays the stored protocol again (the same learner
and arguments, configuration, seed and users, each play under the stored ``alias-salt`` so that its tasks get
the same names) into a fresh directory with trajectories, then proves it: every record of every play must
equal the stored one, field for field, clocks aside
([`first_difference`][continual_arc.submit.rebuild.first_difference] names the first record that does not),
and ``check`` must hold on the rebuilt directory, replaying every instance.

A stored run has no standing of its own ([`standing`][continual_arc.submit.standing]):
[`store_run`][continual_arc.submit.rebuild.store_run] with a key signs a statement listing every file of the
directory it stores from, the trajectories it leaves behind included
([`store_statement`][continual_arc.submit.rebuild.store_statement]), and a rebuild that proves every record
equal is signed where it ran, with the reader's local key
([`rebuild_statement`][continual_arc.submit.rebuild.rebuild_statement],
[`local_key`][continual_arc.submit.signing.local_key]).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.errors import ContinualArcError
from ..core.files import RecordsError, atomic_write_json, read_json
from ..core.learner_ref import LearnerRef
from ..core.records import JSONObject, JSONValue
from ..play.aliases import SALT_FILE
from ..play.instance_record import TIMING_FIELDS
from ..play.options import RunOptions
from ..protocol.floor import FLOOR_PLAYS
from ..protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from ..protocol.plays import PROTOCOL_PLAYS
from ..stream.users import with_users
from ..tracks.registry import get_config
from .check import CheckResult, check_submission
from .learner_code import code_json, learner_code
from .signing import SigningError, SigningKey, file_digests, read_signatures, sign_directory
from .standing import StandingKind, TrustedKeys, load_trusted, standing_of
from .verify import VerifyOptions, verify

__all__ = [
    "STORED_FILES",
    "RebuildError",
    "Rebuilt",
    "first_difference",
    "rebuild_run",
    "rebuild_statement",
    "store_run",
    "store_statement",
]

STORED_FILES = ("meta.json", "records.jsonl", "summary.json", SALT_FILE)
"""The files of each play a stored run keeps (no trajectories, no learner state)."""

VERIFICATION = "verification.json"
"""A verify rerun's marker, kept when stored: what makes the stored rerun a reproduced or verified result."""
RECORDS = "records.jsonl"


class RebuildError(ContinualArcError):
    """A stored run that cannot be rebuilt as asked (not a stored protocol, or a target in use)."""


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild found.

    Attributes:
        out: the rebuilt protocol directory (with trajectories).
        difference: the first record that differs from the stored one, as one sentence (``None``
            when every play's records equal the stored ones field for field, clocks aside).
        check: the checker's verdict on the rebuilt directory.
    """

    out: Path
    difference: str | None
    check: CheckResult

    @property
    def ok(self) -> bool:
        """Whether the records are the stored ones and every check holds on the rebuilt run."""
        return self.difference is None and self.check.ok


def _object(path: Path) -> Mapping[str, JSONValue]:
    try:
        value = read_json(path)
    except FileNotFoundError:
        raise RebuildError(f"{path} is missing: give a stored protocol (continual-arc runs store)") from None
    except RecordsError as err:
        raise RebuildError(str(err)) from None
    if not isinstance(value, Mapping):
        raise RebuildError(f"{path} does not hold an object")
    return value


def store_run(
    protocol: Path | str,
    stored: Path | str,
    *,
    fields: Mapping[str, str] | None = None,
    sign_with: SigningKey | None = None,
    played_here: bool = False,
    trusted: TrustedKeys | None = None,
) -> Path:
    """Keep a protocol directory's records, meta, summaries and schedules in ``stored``.

    ``fields`` fills in ``submission.json`` (``student``, ``code``, ``contact``) where the protocol
    left it blank. A ``verify`` rerun keeps its ``verification.json``. Trajectories, learner states,
    plots and a rerun's ``work/`` folder are left behind. With ``sign_with``, the stored directory
    is signed ([`store_statement`][continual_arc.submit.rebuild.store_statement]): the key must vouch for how
    the protocol was played.

    Raises:
        RebuildError: the protocol is not finished.
        SigningError: a key is given, but nothing says how the protocol was played: its own
            signature is not one ``trusted`` (with the key itself) vouches for, and
            ``played_here`` is not set.
    """
    source, target = Path(protocol), Path(stored)
    needed = [source / "submission.json", source / "protocol.json", source / "schedules"]
    needed += [source / play / name for play in PROTOCOL_PLAYS.values() for name in STORED_FILES]
    missing = next((path for path in needed if not path.exists()), None)
    if missing is not None:
        raise RebuildError(f"{source} is not a finished protocol: {missing} is missing")
    origin = _origin(source, sign_with, played_here, trusted) if sign_with is not None else None
    whole = file_digests(source) if sign_with is not None else {}
    submission = dict(_object(source / "submission.json"))
    for name, value in (fields or {}).items():
        submission[name] = submission.get(name) or value
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(source / "protocol.json", target / "protocol.json")
    if (source / VERIFICATION).is_file():
        shutil.copy(source / VERIFICATION, target / VERIFICATION)
    atomic_write_json(target / "submission.json", submission)
    shutil.copytree(source / "schedules", target / "schedules", dirs_exist_ok=True)
    for play in PROTOCOL_PLAYS.values():
        (target / play).mkdir(exist_ok=True)
        for name in STORED_FILES:
            shutil.copy(source / play / name, target / play / name)
    if sign_with is not None and origin is not None:
        sign_directory(target, store_statement(target, whole, origin), sign_with)
    # The track's floor, where the protocol copied it in, is kept beside the plays, as its records.
    for floor in FLOOR_PLAYS.values():
        if all((source / floor / name).exists() for name in STORED_FILES):
            (target / floor).mkdir(exist_ok=True)
            for name in STORED_FILES:
                shutil.copy(source / floor / name, target / floor / name)
    return target


def _origin(source: Path, key: SigningKey, played_here: bool, trusted: TrustedKeys | None) -> JSONObject:
    """How a stored protocol was played, as its signer vouches: its own signed statement, or here."""
    readers = (load_trusted() if trusted is None else trusted).with_keys([key.public])
    standing = standing_of(source, readers)
    if standing.kind is not StandingKind.REPORTED:
        signed = next(s for s in read_signatures(source) if readers.find(s.key_id) is not None)
        carried = {k: v for k, v in signed.statement.items() if k not in ("files", "stored")}
        return {
            "mode": str(standing.kind),
            "played": f"{carried.get('kind')} by {standing.signer}",
            **carried,
        }
    if not played_here:
        raise SigningError(
            f"{source} carries no signature you trust ({standing.reason}): give --played-here if you "
            "played it from its code yourself, or store it unsigned (it then stands as reported)"
        )
    document = _object(source / "protocol.json")
    learner = document.get("learner")
    name = str(learner.get("class")) if isinstance(learner, Mapping) else ""
    kwargs = learner.get("kwargs") if isinstance(learner, Mapping) else None
    return {
        "mode": str(StandingKind.REPRODUCED),
        "played": "from its code by the signer",
        "config": document.get("config"),
        "seed": document.get("seed"),
        "learner": {"class": name, "kwargs": kwargs if isinstance(kwargs, dict) else {},
                    "code": code_json(learner_code(name))},
    }  # fmt: skip


def store_statement(stored: Path, whole: Mapping[str, str], origin: Mapping[str, JSONValue]) -> JSONObject:
    """The statement a stored protocol is signed with.

    ``files`` names every file of the directory it was stored from (``whole``), the kept ones as
    stored (``submission.json`` may have been filled in); ``stored`` lists those kept, so that the
    trajectories and states left behind may be absent and no other file. ``mode`` is what the
    signer vouches for: the source's own signed standing, or ``reproduced`` for a protocol the
    signer played from its code (``origin``).
    """
    kept = file_digests(stored)
    statement: JSONObject = {k: v for k, v in origin.items() if k not in ("kind", "files", "stored")}
    statement.update(
        kind="store",
        project={"name": "continual-arc", "version": __version__},
        files=dict(sorted({**whole, **kept}.items())),
        stored=list[JSONValue](sorted(kept)),
    )
    return statement


def rebuild_statement(stored: Path, rebuilt: Rebuilt) -> JSONObject:
    """The statement a reader's local key signs after a rebuild proved every record equal.

    It names the stored directory's files as they are (records only), the learner's code as read
    here, and that it stands as ``reproduced``: its code, played here, gives exactly its records.
    """
    document = _object(stored / "protocol.json")
    learner = document.get("learner")
    name = str(learner.get("class")) if isinstance(learner, Mapping) else ""
    kwargs = learner.get("kwargs") if isinstance(learner, Mapping) else None
    files = file_digests(stored)
    return {
        "kind": "rebuild",
        "mode": str(StandingKind.REPRODUCED),
        "project": {"name": "continual-arc", "version": __version__},
        "config": document.get("config"),
        "seed": document.get("seed"),
        "learner": {"class": name, "kwargs": kwargs if isinstance(kwargs, dict) else {},
                    "code": code_json(learner_code(name))},
        "rebuilt": {"records": "every play's records equal, clocks aside", "check": rebuilt.check.ok},
        "files": dict(files),
        "stored": list[JSONValue](sorted(files)),
    }  # fmt: skip


def _unclocked(line: bytes) -> object:
    """A record without its clocks (`TIMING_FIELDS`); the raw line when it is not a JSON object."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return line
    return {k: v for k, v in value.items() if k not in TIMING_FIELDS} if isinstance(value, dict) else line


def first_difference(stored: Path | str, rebuilt: Path | str) -> str | None:
    """The first play's record that differs between two protocol directories, in one sentence.

    Records are compared field for field, clocks aside
    ([`TIMING_FIELDS`][continual_arc.play.instance_record.TIMING_FIELDS]: how long an instance took is the
    machine's, not the run's); ``None`` when every record is the same.
    """
    for play in PROTOCOL_PLAYS.values():
        a, b = Path(stored) / play / RECORDS, Path(rebuilt) / play / RECORDS
        old, new = a.read_bytes().splitlines(), b.read_bytes().splitlines()
        for line, (was, now) in enumerate(zip(old, new, strict=False), 1):
            if _unclocked(was) != _unclocked(now):
                return f"{a}, line {line}, differs from the rebuilt {b}: {_fields(was, now)}"
        if len(old) != len(new):
            return f"{a} holds {len(old)} records and the rebuilt {b} {len(new)}"
    return None


def _fields(was: bytes, now: bytes) -> str:
    """Which fields of two JSON lines differ, with both values."""
    old, new = _unclocked(was), _unclocked(now)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return "the lines are not both JSON objects"
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    shown = ", ".join(f"{k} {old.get(k)!r} stored, {new.get(k)!r} rebuilt" for k in keys[:3])
    return f"step {old.get('step')!r}: {shown}"


def _options(stored: Path, out: Path, jobs: int) -> tuple[ProtocolSpec, ProtocolOptions]:
    """The protocol the stored run played, read from its ``protocol.json`` and the stream's meta."""
    document = _object(stored / "protocol.json")
    learner = document.get("learner")
    if not isinstance(learner, Mapping) or not isinstance(learner.get("class"), str):
        raise RebuildError(f"{stored / 'protocol.json'} names no learner")
    kwargs = learner.get("kwargs")
    style = _object(stored / PROTOCOL_PLAYS["stream"] / "meta.json").get("alias_style")
    config, seed, users = (document.get(key) for key in ("config", "seed", "users"))
    if not isinstance(config, str) or not isinstance(seed, int) or not isinstance(users, int):
        raise RebuildError(f"{stored / 'protocol.json'} does not name its configuration, seed and users")
    ref = LearnerRef(str(learner["class"]), dict(kwargs) if isinstance(kwargs, Mapping) else {})
    options = ProtocolOptions(
        out=out,
        jobs=jobs,
        run=RunOptions(alias_style=style if isinstance(style, str) else "hash"),
        plots=False,
    )
    return ProtocolSpec(ref, get_config(config), seed, users), options


def _verify_options(stored: Path, out: Path, withheld: Sequence[Path]) -> VerifyOptions:
    """The verification a stored one was, read from its ``verification.json``."""
    marker = _object(stored / VERIFICATION)
    learner, seed, config = marker.get("learner"), marker.get("seed"), marker.get("config")
    if not isinstance(learner, str) or not isinstance(seed, int) or not isinstance(config, str):
        raise RebuildError(f"{stored / VERIFICATION} does not name its learner, seed and configuration")
    about = marker.get("about")
    submission = _object(stored / "submission.json")
    return VerifyOptions(
        learner=learner,
        config=with_users(get_config(config), 1),  # a pack's, once its folder is given (--pack DIR)
        out=out,
        seed=seed,
        mode=str(marker.get("mode") or "reproduced"),
        about=dict(about) if isinstance(about, Mapping) else {},
        student=str(submission.get("student") or "none"),
        withheld=tuple(withheld),
    )


def _prepare(stored: Path, out: Path) -> None:
    """A fresh target holding the stored schedules and salts, so that each play names its tasks as stored.

    (The protocol compares the schedules it writes with those there: stored ones it would not
    write again are refused as another protocol's.)
    """
    if out.exists() and any(out.iterdir()):
        raise RebuildError(f"{out} is not empty: give a fresh directory to rebuild into")
    shutil.copytree(stored / "schedules", out / "schedules")
    for play in PROTOCOL_PLAYS.values():
        salt = stored / play / SALT_FILE
        if salt.is_file():
            (out / play).mkdir(parents=True, exist_ok=True)
            shutil.copy(salt, out / play / SALT_FILE)


def rebuild_run(
    stored: Path | str,
    out: Path | str,
    *,
    jobs: int = 1,
    allow_ablation: bool = False,
    check: Callable[[Path], CheckResult] | None = None,
    withheld: Sequence[Path] = (),
) -> Rebuilt:
    """Play a stored protocol again into ``out`` (fresh), compare its records, and check it.

    Args:
        stored: a stored protocol ([`store_run`][continual_arc.submit.rebuild.store_run]: records, meta,
            summaries, no trajectories).
        out: the directory to rebuild into; it must be empty or absent.
        jobs: plays at once, each in a process of its own.
        allow_ablation: check a protocol that is not canonical (as ``check --ablation``).
        check: the check of the rebuilt directory (default
            [check_submission][continual_arc.submit.check.check_submission], replaying every instance).
        withheld: folders a verification's learner must not reach (a rule pack's, as ``verify``
            withholds it).

    A stored verification (one that kept its ``verification.json``) is rebuilt as it was played:
    ``verify`` again, at the seed, on the configuration and with the learner its marker names, each
    test instance in a process of its own. A result verified on a rule pack needs that pack in use
    in this process ([use_pack][continual_arc.tracks.registry.use_pack], what
    ``runs rebuild --pack DIR`` does).

    Raises:
        RebuildError: ``stored`` is not a stored protocol, or ``out`` is not empty.
    """
    source, target = Path(stored), Path(out)
    if (source / VERIFICATION).is_file():
        again = _verify_options(source, target, withheld)  # before anything is written
        _prepare(source, target)
        verify(again)
    else:
        spec, options = _options(source, target, jobs)
        _prepare(source, target)
        play_protocol(spec, options)
    # The stored submission names the same plays, and the fields (student, code, contact) it was given,
    # and the floor the rebuild copied in beside them, which a run stored before the floor lacks.
    submission = dict(_object(source / "submission.json"))
    tests = submission.get("tests")
    for test, floor in FLOOR_PLAYS.items():
        entry = tests.get(test) if isinstance(tests, dict) else None
        if isinstance(entry, dict) and entry.get("floor") is None and (target / floor).is_dir():
            entry["floor"] = floor
    atomic_write_json(target / "submission.json", submission)
    verdict = check(target) if check else check_submission(target, allow_ablation=allow_ablation)
    return Rebuilt(target, first_difference(source, target), verdict)
