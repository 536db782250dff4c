"""Whether a result directory is a stored run, and the one sentence that says how to check one.

A stored run ([store_run][continual_arc.submit.rebuild.store_run], the repository's ``runs/``) keeps
each play's records, meta and summary, never its trajectories, so ``check``, which replays every
instance from its trajectory, has nothing to replay. The leaderboard checks it on everything but
the replay; ``runs rebuild`` plays it again and replays every instance.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ..protocol.plays import PROTOCOL_PLAYS

__all__ = ["is_stored_run", "stored_run_sentence"]


def is_stored_run(root: Path | str) -> bool:
    """Whether ``root`` is a whole protocol whose plays hold records but no trajectories (``i/``)."""
    plays = [Path(root) / play for play in PROTOCOL_PLAYS.values()]
    return all((p / "records.jsonl").is_file() for p in plays) and not any((p / "i").is_dir() for p in plays)


def stored_run_sentence(root: Path | str) -> str:
    """What a stored run is and how to check it, in one sentence."""
    where = shlex.quote(str(root))
    return (
        f"{root} is a stored run (each play's records, meta and summary, no trajectories to replay): "
        f"continual-arc leaderboard {where} checks everything but the replay, and "
        f"continual-arc runs rebuild {where} plays it again and replays every instance"
    )
