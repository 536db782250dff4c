"""Resuming a run: what must match, which rounds stand, and the learner's state put back.

A run resumes only under the schedule it was played on (or one that extends it), with the same
learner, alias style and plug-ins. Its records are cut back to whole rounds, the learner's state
saved after the last of them is loaded, the learner handed the records it continues from (its
optional ``resume_from``), and the interrupted round is played again from its start.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping

from ..core.records import JSONObject, RunMeta
from ..measure.budget import primary
from ..stream.schedule import Schedule
from .episode import guarded
from .fingerprint import learner_fingerprint
from .learner import ResumesFrom, is_stateless
from .meta import learner_spec, write_meta
from .options import RunOptions
from .rundir import SCHEDULE, RunDirError, committed_rounds, prune_states, read_meta, state_for_round
from .session import RunSession

__all__ = ["resume"]


def _check_resumable(session: RunSession, options: RunOptions, meta: RunMeta) -> None:
    out = session.out
    old = Schedule.load(out / SCHEDULE, verify=False)
    new = session.schedule
    n = min(len(old.slots), len(new.slots))
    for got, want in zip(old.slots[:n], new.slots[:n], strict=True):
        if got != want:
            raise RunDirError(
                f"{out}: the schedule differs from the run's at step {got.step} "
                f"({got.task_id} seed {got.seed} recorded, {want.task_id} seed {want.seed} now)"
            )
    _check_learner(session, options, meta)
    changed = _schedule_differences(meta["schedule"], new.meta)
    if changed:
        raise RunDirError(f"{out} was played under other rules ({'; '.join(changed)}): resuming is refused")
    played = {
        "with alias style": (meta.get("alias_style"), options.alias_style),
        "with plug-ins": (list(meta.get("plugins", [])), session.hooks.names),
        "with instance time limit": (meta.get("instance_time_limit"), options.instance_time_limit),
    }
    for what, (then, now) in played.items():
        if then != now:
            raise RunDirError(f"{out} was played {what} {then}; resuming with {now} is refused")


_SCHEDULE_KEYS = (
    "track",
    "config",
    "configuration",
    "seed",
    "users",
    "order",
    "epilogue",
    "reset_each",
    "test",
    "width",
)


def _schedule_differences(then: Mapping[str, object], now: Mapping[str, object]) -> list[str]:
    """What differs between the schedule a run was played on and the one it is resumed with.

    A cut stream may grow (``rounds_cut``), so the cut and the protocol verdict it changes are left out.
    """
    out: list[str] = []
    for key in _SCHEDULE_KEYS:
        was, is_ = then.get(key), now.get(key)
        if was != is_:
            if isinstance(was, Mapping) and isinstance(is_, Mapping):
                out += _schedule_differences_in(was, is_)
            else:
                out.append(f"{key} {was!r} (now {is_!r})")
    return out


def _schedule_differences_in(then: Mapping[str, object], now: Mapping[str, object]) -> list[str]:
    """The fields of a configuration (and of its environment settings) that differ, in words."""
    out: list[str] = []
    for key in sorted(set(then) | set(now)):
        was, is_ = then.get(key), now.get(key)
        if was == is_:
            continue
        if isinstance(was, Mapping) and isinstance(is_, Mapping):
            out += _schedule_differences_in(was, is_)
        else:
            out.append(f"{key} {was!r} (now {is_!r})")
    return out


def _check_learner(session: RunSession, options: RunOptions, meta: RunMeta) -> None:
    """Refuse another learner, other arguments, or the same learner whose code has changed."""
    out = session.out
    spec = learner_spec(session.learner, options)
    recorded: dict[str, object] = dict(meta["learner"])
    recorded["kwargs"] = dict(meta["learner"].get("kwargs") or {})
    if recorded != spec:
        raise RunDirError(f"{out} was played by {recorded}; resuming with {spec} is refused")
    before, now = meta.get("learner_fingerprint"), learner_fingerprint(session.learner)
    if before is not None and before != now:
        changed = [f"{k} {before.get(k)} (now {now.get(k)})" for k in now if before.get(k) != now.get(k)]
        raise RunDirError(
            f"{out} was played by other code of {spec['class']} ({'; '.join(changed)}): resuming would "
            f"mix two learners in one run; play it again in a new directory"
        )


def _restore_state(session: RunSession, last_round: int) -> None:
    learner = session.learner
    if session.saves_state:
        state = state_for_round(session.out, last_round)
        if state is None:
            raise RunDirError(f"{session.out}: no saved learner state for round {last_round}")
        guarded(learner, "load_state", state)
    elif not is_stateless(learner):
        raise RunDirError(
            f"{type(learner).__name__} keeps state between instances but has no save_state/load_state, "
            f"so its run cannot resume; give it both methods, set stateless = True if it keeps nothing, "
            f"or start again in an empty directory"
        )


def resume(session: RunSession, options: RunOptions) -> int:
    """Prepare a resumed run: check it, cut its records to whole rounds, put the learner's state back.

    Returns:
        The number of rounds already committed (the first round to play).

    Raises:
        RunDirError: the run in the directory cannot be resumed as asked (the message says why).
    """
    out = session.out
    meta = read_meta(out)
    _check_resumable(session, options, meta)
    sizes = [len(group) for group in session.schedule.round_slots()]
    records = committed_rounds(out, sizes)
    slotted = primary(records)
    if len(slotted) > len(session.schedule.slots):
        raise RunDirError(f"{out} holds {len(slotted)} records, more than the schedule's slots")
    for record, slot in zip(slotted, session.schedule.slots, strict=False):
        if any(record.get(k) != v for k, v in slot.to_json().items()):
            raise RunDirError(f"{out}: record {record.get('step')} does not match the schedule's slot")
    rounds = records[-1]["round"] + 1 if records else 0
    if rounds:
        _restore_state(session, rounds - 1)
    if isinstance(session.learner, ResumesFrom):
        # Copies: what the learner does with them changes nothing of the run's records.
        guarded(session.learner, "resume_from", copy.deepcopy(records))
    prune_states(out, keep=rounds - 1)  # a state saved for a round that never committed
    session.records = records
    session.auxiliary.recount(records)
    resumes: list[JSONObject] = [
        *meta.get("resumes", []),
        {"at_round": rounds, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
    ]
    write_meta(session, options, resumes, started=meta.get("started"))
    return rounds
