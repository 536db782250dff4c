"""Checks of one run directory that trust nothing the run could have written differently.

Each check returns problems as lines ``<file>: <what does not hold, and what was expected>``:

* the files a run holds are there and parse;
* the schedule, rebuilt from the configuration, seed, order or test, users and width in
  ``meta.json``, is what the records cover: every slot exactly once, in order, with the recorded
  task, seed, phase, user, round and reset flag;
* every instance's charge, end, counts and share of the budget follow from its recorded actions
  and the environment's rules (a game level's action cap as its trajectory gives it);
* each submitted grid in the trajectory, checked against the instance drawn again from its task
  and seed, got the verdict recorded, and the trajectory's actions are the record's; a game level
  is played again from the trajectory's actions, and every frame and attempt's end must be the
  engine's ([`replay`][continual_arc.submit.replay]);
* every alias is the one the run's ``alias-salt`` gives;
* ``summary.json`` is what the records give;
* the schedule block in ``meta.json`` is the one its configuration and seed rebuild, and the
  protocol block (the canonical verdict) is the one
  [`protocol_of`][continual_arc.stream.protocol_block.protocol_of] gives for it: the verdict the canonical
  check reads is that recomputed one (`LoadedRun.protocol`);
* a run whose meta lists no plug-in carries no plug-in trace ([`traces`][continual_arc.submit.traces]).

A run stored without its trajectories (no ``i/`` folder, as the repository's ``runs/`` keeps them)
is checked, when ``records_only`` allows it, on everything its records, meta and summary give
(schedule, charges, aliases, summary, verdict); its instances are not replayed and a game level's
score, which needs the trajectory's baseline, is not recomputed: `LoadedRun.records_only`
says so, and ``continual-arc runs rebuild`` replays it whole.

Every malformed input is a problem line, never a traceback: the files' shape is checked first
([`shape`][continual_arc.submit.shape]), and a run whose shape does not hold is unusable; a check that still
meets something it cannot read says so in one line naming the run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..core.config import Config, ScheduleError
from ..core.documents import (
    DocumentError,
    parse_records,
    parse_run_meta,
    parse_schedule_meta,
    schedule_meta_json,
)
from ..core.environment import EnvSettings
from ..core.files import RecordsError, read_json, read_jsonl
from ..core.level_score import level_fields
from ..core.records import JSONObject, JSONValue, ProtocolBlock, Record, RunMeta, is_primary
from ..measure.summary import summarize, summary_json
from ..play.aliases import SALT_FILE, Aliases
from ..play.rundir import trajectory_name
from ..stream.schedule import Schedule, rebuild
from ..tracks.track import Track
from .replay import ReplayCharge, replay_charge, replay_instance
from .shape import meta_shape, records_shape
from .traces import TraceFinder

__all__ = ["LoadedRun", "ReplayCharge", "check_run", "load_checked_run", "replay_charge"]

T = TypeVar("T")


@dataclass
class LoadedRun:
    """A run directory as the checker read it (fields are ``None`` where a file was unusable).

    ``protocol`` is not read from the run: it is the protocol block its schedule, rebuilt from the
    configuration and seed, gives (``None`` until checked, or when the schedule does not rebuild).
    ``records_only``: the run holds no trajectories and was checked without replaying them.
    ``track``: the track of the rebuilt schedule, resolved once (``None`` until checked, or when it
    cannot be served here).
    """

    path: Path
    meta: RunMeta | None
    records: list[Record] | None
    summary: JSONObject | None
    salt: str | None
    protocol: ProtocolBlock | None = None
    records_only: bool = False
    track: Track | None = None


def _read(path: Path, problems: list[str]) -> JSONValue:
    try:
        value: JSONValue = read_json(path)
        return value
    except FileNotFoundError:
        problems.append(f"{path}: missing")
    except RecordsError as err:
        problems.append(str(err))
    return None


def _validated(path: Path, problems: list[str], read: Callable[[str, str], T]) -> T | None:
    """A file whose shape has passed, read again by its declaration's reader (one problem if refused)."""
    try:
        return read(path.read_text(encoding="utf-8"), str(path))
    except DocumentError as err:
        problems.append(str(err))
        return None


def load_checked_run(path: Path, problems: list[str]) -> LoadedRun:
    """Read a run's files, noting each that is missing or malformed (of the wrong shape: unusable).

    Each file is first checked by the checker's own shape check ([`shape`][continual_arc.submit.shape]),
    which names up to five problems a file; one whose shape holds is then read by its declaration's
    reader ([`continual_arc.core.documents`][continual_arc.core.documents]), which refuses whatever
    else the declaration does not allow.
    """
    raw = _read(path / "meta.json", problems)
    meta: RunMeta | None = None
    if raw is not None and (wrong := meta_shape(raw, path / "meta.json")):
        problems += wrong
    elif raw is not None:
        # A schedule block that does not rebuild is a problem line of its own (_rebuilt), not this.
        meta = _validated(path / "meta.json", problems, parse_run_meta)
    summary = _read(path / "summary.json", problems)
    if summary is not None and not isinstance(summary, dict):
        problems.append(f"{path / 'summary.json'}: not an object")
        summary = None
    records: list[Record] | None = None
    try:
        lines = read_jsonl(path / "records.jsonl")
    except FileNotFoundError:
        problems.append(f"{path / 'records.jsonl'}: missing")
    except RecordsError as err:
        problems.append(str(err))
    else:
        if wrong := records_shape(lines, path / "records.jsonl"):
            problems += wrong
        else:
            records = _validated(path / "records.jsonl", problems, parse_records)
    salt = None
    try:
        salt = (path / SALT_FILE).read_text().strip()
    except FileNotFoundError:
        problems.append(f"{path / SALT_FILE}: missing")
    return LoadedRun(path, meta, records, summary, salt)


def _verdict(block: object) -> object:
    """A protocol block without its ``release``: the verdict is this release's, whichever release played."""
    return {k: v for k, v in block.items() if k != "release"} if isinstance(block, Mapping) else block


def _rebuilt(run: LoadedRun, problems: list[str]) -> Schedule | None:
    """The schedule ``meta.json`` describes, rebuilt; its schedule and protocol blocks compared with it.

    Sets `LoadedRun.protocol` to the rebuilt schedule's protocol block. ``None`` (and one
    problem) when the schedule block does not rebuild a schedule.
    """
    assert run.meta is not None
    where = run.path / "meta.json"
    try:
        schedule = rebuild(run.meta["schedule"])
    except Exception as err:  # a meta that rebuilds nothing is one problem, whatever the cause
        problems.append(f"{where}: its schedule block does not rebuild a schedule ({err!r})")
        return None
    fresh = schedule_meta_json(schedule.meta)  # as JSON, as it was written
    run.protocol = fresh["protocol"]
    recorded = run.meta["schedule"]
    for key in sorted((set(fresh) | set(recorded)) - {"protocol"}):
        if recorded.get(key) != fresh.get(key):
            problems.append(
                f"{where}: schedule {key} is {recorded.get(key)!r}, but the schedule its configuration "
                f"and seed rebuild has {fresh.get(key)!r}"
            )
    # From here on the run's schedule block is the rebuilt one: the records were checked against
    # it, and the cross checks then read fields it always has (one a forger dropped included).
    run.meta["schedule"] = parse_schedule_meta(fresh)
    # Both copies of the verdict, compared in one line: one forged block is one problem.
    wrong = [
        name
        for name, block in (
            ("protocol", run.meta.get("protocol")),
            ("schedule protocol", recorded.get("protocol")),
        )
        if _verdict(block) != _verdict(run.protocol)
    ]
    if wrong:
        claimed = run.meta.get("protocol") if "protocol" in wrong else recorded.get("protocol")
        problems.append(
            f"{where}: {' and '.join(wrong)} block {_verdict(claimed)!r} is not what its schedule gives: "
            f"canonical {run.protocol['canonical']}, deviations {run.protocol['deviations']!r}"
        )
    return schedule


def _check_coverage(run: LoadedRun, schedule: Schedule, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    name = run.path / "records.jsonl"
    primary = [(i, r) for i, r in enumerate(run.records, 1) if is_primary(r)]
    seen: dict[object, int] = {}
    for line, record in primary:
        step = record.get("step")
        if step in seen:
            problems.append(f"{name}, line {line}: step {step} again (first at line {seen[step]})")
        else:
            seen[step] = line
    steps = [r.get("step") for _, r in primary]
    disorder = _first_disorder(steps)
    if disorder:
        problems.append(f"{name}: records out of order ({disorder})")
    slots = {slot.step: slot for slot in schedule.slots}
    for missing in sorted(set(slots) - set(seen))[:5]:
        absent = slots[missing]
        problems.append(f"{name}: slot {missing} (task {absent.task_id}, seed {absent.seed}) has no record")
    for line, record in primary:
        slot = slots.get(record.get("step", -1))
        if slot is None:
            problems.append(f"{name}, line {line}: step {record.get('step')} is not a slot of the schedule")
            continue
        want = slot.to_json()  # every field of the slot: the exposures and gaps the measures read too
        diff = [
            f"{k} {record.get(k)!r} (the schedule has {v!r})" for k, v in want.items() if record.get(k) != v
        ]
        if diff:
            problems.append(f"{name}, line {line}: step {slot.step}: {', '.join(diff)}")


def _first_disorder(steps: Sequence[object]) -> str | None:
    """The first place where steps do not increase, in words (``None`` when they all do)."""
    for a, b in itertools.pairwise(steps):
        if not isinstance(a, int) or not isinstance(b, int) or b < a:
            return f"step {b} after step {a}"
    return None


def _game_opening(run: LoadedRun, record: Record) -> tuple[int | None, int | None, str]:
    """A game instance's action cap, baseline and the baseline's source, as its trajectory gives them.

    The replay checks them; a trajectory written before the source was recorded read the solver's plan.
    """
    try:
        opening = read_json(run.path / "i" / f"{trajectory_name(record)}.json")
    except (FileNotFoundError, RecordsError):
        return None, None, "plan"  # the missing trajectory is reported by the trajectories' check
    cap, baseline = opening.get("action_cap"), opening.get("baseline_actions")
    source = opening.get("baseline_source", "plan")
    return (
        (cap if isinstance(cap, int) else None),
        (baseline if isinstance(baseline, int) else None),
        source if isinstance(source, str) else repr(source),
    )


def _level_problems(record: Record, baseline: int | None, source: str, replay: ReplayCharge) -> list[str]:
    """Where a game record's level score is not what its actions and its trajectory's baseline give."""
    if baseline is None or baseline <= 0:
        return [f"its trajectory gives no baseline for the level score ({baseline!r})"]
    try:
        want = level_fields(record.get("actions", []), bool(replay["solved"]), baseline, source)
    except ValueError as err:
        return [f"its level score cannot be computed ({err})"]
    # A record written before the baseline's source was recorded read the solver's plan.
    got = {**{"baseline_source": "plan"}, **{k: record.get(k) for k in want if k in record}}
    return [f"{k} {got.get(k)!r} (the actions give {v!r})" for k, v in want.items() if got.get(k) != v]


def _settings(run: LoadedRun) -> EnvSettings:
    """The run's environment rules, from the configuration the schedule was rebuilt from."""
    assert run.meta is not None
    return Config.from_dict(run.meta["schedule"]["configuration"]).env


def _check_charges(run: LoadedRun, track: Track | ScheduleError, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    settings = _settings(run)
    # A track that cannot run here (an error): the coverage check has said so.
    games = isinstance(track, Track) and track.kind == "game"
    # Without trajectories a level's cap and baseline are unknown: its charge is recomputed with
    # no cap (the recorded ends stand in for it), and its level score is left to the rebuild.
    openings = games and not run.records_only
    for line, record in enumerate(run.records, 1):
        cap, baseline, source = _game_opening(run, record) if openings else (None, None, "plan")
        if games and run.records_only:
            cap = len(record.get("actions", [])) or None
        replay = replay_charge(record, settings, cap)
        if "problem" in replay:
            problems.append(
                f"{run.path / 'records.jsonl'}, line {line}: step {record.get('step')}: {replay['problem']}"
            )
            continue
        diff = [
            f"{k} {record.get(k)!r} (the actions give {v!r})" for k, v in replay.items() if record.get(k) != v
        ]
        if openings:
            diff += _level_problems(record, baseline, source, replay)
        if diff:
            problems.append(
                f"{run.path / 'records.jsonl'}, line {line}: step {record.get('step')}: {', '.join(diff)}"
            )


def _check_aliases(run: LoadedRun, schedule: Schedule, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    if run.salt is None:
        return
    aliases = Aliases(run.salt, run.meta.get("alias_style", "hash"))
    for line, record in enumerate(run.records, 1):
        want = aliases.alias(record.get("task_id", ""))
        if record.get("alias") != want:
            problems.append(
                f"{run.path / 'records.jsonl'}, line {line}: alias {record.get('alias')!r} is not what "
                f"{run.path / SALT_FILE} gives ({want})"
            )
            return


def _check_trajectories(
    run: LoadedRun, track: Track | ScheduleError, problems: list[str], regenerate: bool
) -> None:
    """Every trajectory read for plug-in traces (`traces`), and replayed when ``regenerate``.

    The replay ([`replay`][continual_arc.submit.replay]) plays each instance again through its environment.
    """
    assert run.meta is not None and run.records is not None
    if isinstance(track, ScheduleError):
        raise track
    settings = _settings(run)
    traces = TraceFinder(run.path, run.meta.get("plugins"))
    for line, record in enumerate(run.records, 1):
        traces.record(line, record)
        if run.records_only:
            continue  # no trajectory to read: the records' own traces are all there is
        path = run.path / "i" / f"{trajectory_name(record)}.json"
        try:
            trajectory = read_json(path)
        except (FileNotFoundError, RecordsError) as err:
            problems.append(f"{path}: {'missing' if isinstance(err, FileNotFoundError) else err}")
            continue
        if not isinstance(trajectory, dict):
            problems.append(f"{path}: not an object")
            continue
        traces.trajectory(path, trajectory)
        if regenerate:
            try:
                problems += replay_instance(track, settings, record, trajectory, path)
            except Exception as err:  # the environment refuses what the files hold: one line, not a traceback
                problems.append(f"{path}: cannot be replayed ({err!r})")
    problems += traces.problems()


def _check_summary(run: LoadedRun, schedule: Schedule, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None and run.protocol is not None
    if run.summary is None:
        return
    # with the recomputed verdict: the summary repeats the protocol block
    fresh = summary_json(summarize(run.records, {**run.meta, "protocol": run.protocol}))
    for key in sorted(set(fresh) | set(run.summary)):
        if fresh.get(key) != run.summary.get(key):
            problems.append(f"{run.path / 'summary.json'}: {key} is not what the records give")


def check_run(
    path: Path, *, regenerate: bool = True, records_only: bool = False
) -> tuple[LoadedRun, list[str]]:
    """Every check of one run; the run as read, and each problem as one line.

    ``regenerate`` replays every instance through its environment; without it, the trajectories
    are still read for plug-in traces. ``records_only`` accepts a run stored without its
    trajectories (no ``i/`` folder): everything else is checked, and the run is marked
    `LoadedRun.records_only`.
    """
    problems: list[str] = []
    run = load_checked_run(path, problems)
    run.records_only = records_only and not (path / "i").is_dir()
    if run.meta is None:
        return run, problems
    # The schedule first, even without usable records: the cross checks read the rebuilt block.
    schedule = _rebuilt(run, problems)
    if schedule is None:
        run.meta = None  # a schedule block that rebuilds nothing: no other check can read the run
        return run, problems
    track: Track | ScheduleError
    try:
        track = schedule.track  # the rebuilt schedule's, resolved once for the checks that need it
    except ScheduleError as err:
        track = err
    run.track = track if isinstance(track, Track) else None
    if run.records is None:
        return run, problems
    checks: list[tuple[str, Callable[[], None]]] = [
        ("coverage", lambda: _check_coverage(run, schedule, problems)),
        ("charges", lambda: _check_charges(run, track, problems)),
        ("aliases", lambda: _check_aliases(run, schedule, problems)),
        ("trajectories", lambda: _check_trajectories(run, track, problems, regenerate)),
        ("summary", lambda: _check_summary(run, schedule, problems)),
    ]
    for name, check in checks:
        try:
            check()
        except Exception as err:  # the shape check missed something: still one line, never a traceback
            problems.append(f"{path}: its {name} could not be checked ({err!r})")
    return run, problems
