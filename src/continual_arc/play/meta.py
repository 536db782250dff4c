"""``meta.json``: written first, it says what is played, by which learner, on which release and data."""

from __future__ import annotations

import platform
import time

from .. import __version__
from ..core.documents import schedule_meta_json
from ..core.files import atomic_write_text
from ..core.records import JSONObject, LearnerSpec, RunMeta, run_meta_text
from .fingerprint import learner_fingerprint
from .options import RunOptions
from .rundir import META, SCHEDULE
from .session import RunSession

__all__ = ["learner_spec", "write_meta"]


def learner_spec(learner: object, options: RunOptions) -> LearnerSpec:
    """The learner as ``meta.json`` names it: ``{"class": "module:Class", "kwargs": {...}}``.

    A learner passed from Python without ``options.learner`` is recorded by its class with no
    arguments (``{}``), as the command line records one built with none.
    """
    if options.learner is None:
        cls = type(learner)
        return {"class": f"{cls.__module__}:{cls.__qualname__}", "kwargs": {}}
    return options.learner.spec


def write_meta(
    session: RunSession, options: RunOptions, resumes: list[JSONObject], started: str | None = None
) -> None:
    """Write ``meta.json`` (and ``schedule.json``) for the run ``session`` plays.

    Args:
        session: the run.
        options: how it is played.
        resumes: each resume so far (round and time).
        started: when the run first started (a resumed run's, kept); ``None``: now.
    """
    schedule = session.schedule
    meta: RunMeta = {
        "format": 1,
        "schedule": schedule_meta_json(schedule.meta),
        "protocol": schedule.meta["protocol"],
        "slots": len(schedule.slots),
        "learner": learner_spec(session.learner, options),
        "learner_fingerprint": learner_fingerprint(session.learner),
        "concurrent_users": bool(session.learner.concurrent_users),
        "alias_style": options.alias_style,
        "max_concurrent": options.max_concurrent,
        "instance_time_limit": options.instance_time_limit,
        "plugins": list(session.hooks.names),
        "versions": {"continual-arc": __version__, "sources": session.track.describe_sources()},
        "python": platform.python_version(),
        "platform": platform.platform(),
        "started": started or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "resumes": resumes,
    }
    atomic_write_text(session.out / META, run_meta_text(meta))
    schedule.save(session.out / SCHEDULE)
