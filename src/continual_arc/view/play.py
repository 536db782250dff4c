"""Play it yourself: a person plays a fresh instance of a task, with the learner's three actions and costs.

The server opens the instance through its track ([`open`][continual_arc.tracks.track.Track.open]),
exactly as the runner does, under the benchmark's rules, and keeps it: the page sends actions and
gets back only what a learner would (the input, each demonstration bought, each verdict, the cost
so far), never the answer. A game (arc3) is played the same way, its level's actions sent as the
learner sends them (``{"action": "ACTION1"}``, a click with its ``x`` and ``y``) and each reply
carrying the frames they rendered, as text ([`decode_frame`][continual_arc.core.games.decode_frame]'s
encoding). Instance seeds are drawn at random in a range no schedule and no
auxiliary episode uses ([`PLAY_SEED_BASE`][continual_arc.view.play.PLAY_SEED_BASE]), so every play is a fresh
instance.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeGuard

from ..core.actions import Action, GiveUp, RequestDemos, Submit
from ..core.environment import AnyEnvironment, EnvSettings, InstanceClosedError
from ..core.errors import ContinualArcError
from ..core.games import game_feedback_to_json
from ..core.records import JSONObject, JSONValue
from ..stream.seeds import SEED_SPAN
from ..tracks.registry import TRACKS
from ..tracks.track import PHASE_SOURCES, Track

__all__ = ["PLAY_SEED_BASE", "PlayError", "PlaySessions", "play_seed"]

PLAY_SEED_BASE = 8
"""Played instances' seeds lie in ``[8 * 10**15, 9 * 10**15)``.

Schedules use bases 1 to 4 (stream, epilogue, held-out, seen), auxiliary episodes 5, and the
screen seeds 0 to 29 under a purpose of its own, so a played instance never meets a scored one.
Like every seed, they stay below 2**53, so the page's JavaScript keeps them exact.
"""

MAX_SESSIONS = 64
"""Instances kept open at once; the oldest is dropped past it."""


class PlayError(ContinualArcError, ValueError):
    """A play the server cannot serve: an unknown track, task, phase or session, or a bad action."""


def play_seed() -> int:
    """A fresh instance seed in the viewer's own range."""
    return PLAY_SEED_BASE * SEED_SPAN + secrets.randbelow(SEED_SPAN)


@dataclass
class _Session:
    track: str
    task: str
    phase: str
    seed: int
    env: AnyEnvironment
    started: float
    game: bool = False
    actions: int = 0  # a game level's actions so far, counted as its level score counts them


def _is_rows(grid: JSONValue) -> TypeGuard[list[list[int]]]:
    """Whether ``grid`` is at most 64 rows of at most 64 whole numbers (what a grid could be)."""
    return (
        isinstance(grid, list)
        and len(grid) <= 64
        and all(
            isinstance(row, list)
            and len(row) <= 64
            and all(isinstance(cell, int) and not isinstance(cell, bool) for cell in row)
            for row in grid
        )
    )


def _action(body: Mapping[str, JSONValue]) -> Action:
    kind = body.get("action")
    if kind == "request_demos":
        return RequestDemos()
    if kind == "give_up":
        return GiveUp()
    if kind == "submit":
        grid = body.get("grid")
        if not _is_rows(grid):
            raise PlayError("submit needs a grid: a list of rows of whole numbers")
        return Submit(grid)  # its shape and colours are checked when the grid is applied
    raise PlayError(f"unknown action {kind!r}: submit, request_demos or give_up")


class PlaySessions:
    """The instances people are playing, by a random token (safe to use from several threads).

    Args:
        settings: the environment's rules.
        max_sessions: instances kept at once (the oldest is dropped past it).
        human_file: where a human's plays are counted (``None``: nowhere).
        tracks: the tracks a player may open, by name, resolved by whoever serves the viewer (the
            command line adds the packs it was given); by default every installed track.
    """

    def __init__(
        self,
        settings: EnvSettings | None = None,
        max_sessions: int = MAX_SESSIONS,
        human_file: Path | None = None,
        tracks: Mapping[str, Track] = TRACKS,
    ) -> None:
        self.tracks = tracks
        self.settings = settings or EnvSettings()
        self.max_sessions = max_sessions
        self.human_file = human_file
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, track: str, task: str, phase: str, seed: int | None = None) -> JSONObject:
        """Open a fresh instance of ``task`` as ``phase`` serves it; what the player is shown first.

        Raises:
            PlayError: the track, phase or task is unknown.
        """
        if phase not in PHASE_SOURCES:
            raise PlayError(f"unknown phase {phase!r}")
        served = self.tracks.get(track)
        if served is None:
            served_here = ", ".join(sorted(self.tracks))
            raise PlayError(f"no track named {track!r} is served here; served: {served_here}")
        try:
            env = served.open(phase, task, play_seed() if seed is None else seed, self.settings)
        except ContinualArcError as err:
            raise PlayError(str(err)) from None
        chosen = getattr(getattr(env, "instance", None), "seed", seed)
        token = secrets.token_urlsafe(16)
        game = served.kind == "game"
        with self._lock:
            self._sessions[token] = _Session(track, task, phase, int(chosen or 0), env, time.time(), game)
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        opening = env.opening()
        reply: JSONObject = {
            "token": token,
            "track": track,
            "task": task,
            "phase": phase,
            "seed": chosen,
            "kind": served.kind,
            "input": opening.get("input"),
            "demo_cap": opening.get("demo_cap"),
            "rules": dict(self.settings.to_dict()),
        }
        return {**reply, **_game_opening(env)} if game else reply

    def seed_of(self, token: str) -> int:
        """The instance seed of an open play (tests recompute the answer from it, never the page)."""
        return self._get(token).seed

    def _get(self, token: str) -> _Session:
        with self._lock:
            if token not in self._sessions:
                raise PlayError("no such play (it ended long ago, or the server restarted)")
            return self._sessions[token]

    def act(self, token: str, body: Mapping[str, JSONValue]) -> JSONObject:
        """Apply one action; its feedback as a learner would get it, and the result once it has ended.

        Raises:
            PlayError: no such play, the action is not one of the three, or the instance has ended.
        """
        session = self._get(token)
        action = _game_action(session.env, body) if session.game else _action(body)
        with self._lock:
            try:
                feedback = session.env.step(action)
            except InstanceClosedError:
                raise PlayError("this instance has ended: start a new one") from None
            shown = game_feedback_to_json(feedback) if session.game else session.env.feedback_json(feedback)
            reply: JSONObject = {
                "action": session.env.action_json(action),
                "feedback": shown,
                "done": session.env.done,
                "result": asdict(session.env.result()) if session.env.done else None,
            }
            if session.game:
                reply["human_recorded"] = self._count(session, action, feedback)
        return reply

    def _count(self, session: _Session, action: object, feedback: object) -> bool:
        """Count a game action as the level score does; record a won level's count when asked to.

        Every game action counts, and a RESET when it ended an attempt; a demonstration does not.
        A won level's count goes to ``human_file`` (the human counts beside the games,
        [`continual_arc_games.human`][continual_arc_games.human]) when the viewer was given one.
        Whether it was recorded.
        """
        name = getattr(action, "action", None)
        if isinstance(name, str) and (name != "RESET" or getattr(feedback, "ended", None) is not None):
            session.actions += 1
        record = getattr(session.env, "record_human", None)
        if self.human_file is None or not session.env.done or not session.env.result().solved:
            return False
        if not callable(record) or session.actions < 1:
            return False
        record(session.actions, self.human_file)
        return True


def _game_opening(env: AnyEnvironment) -> JSONObject:
    """What a player of a game level is shown first: the level's frame and the actions it offers."""
    view = env.view("", 0, 0, 0)
    return {
        "frame": getattr(view, "frame", None),
        "actions": list(getattr(view, "available_actions", ())),
        "attempt_cap": getattr(view, "attempt_cap", None),
        "attempt_action_cap": getattr(view, "attempt_action_cap", None),
    }


def _game_action(env: AnyEnvironment, body: Mapping[str, JSONValue]) -> object:
    """A game level's action as the page sends it (a click's cell is checked when it is applied)."""
    try:
        return env.action_from_json(body)
    except ValueError as err:
        raise PlayError(f"{err}: send one of the level's actions, request_demos or give_up") from None
