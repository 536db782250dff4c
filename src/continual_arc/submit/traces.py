"""Plug-in traces in a run whose ``meta.json`` lists no plug-in.

A plug-in leaves traces besides its name in ``meta.json``'s ``plugins``: what it said in a
record's ``plugins`` entry (and a trajectory's), the auxiliary episodes it asked for (records whose
``episode_type`` is not ``primary``), and what it showed the learner in an observation's
``extra``. Emptying the list alone would hide a plug-in that slipped the learner the answer, so a
run that lists none must carry none of these. Each kind of trace is one line, at its first place
in the run: a run with thousands of them says so once per kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..core.records import EpisodeType, Record, is_primary

__all__ = ["TraceFinder"]


class TraceFinder:
    """Collects the first trace of each kind in one run that lists no plug-in.

    Args:
        run_path: the run's directory, for the problems' wording.
        listed: the plug-ins ``meta.json`` lists; with any, traces are expected and nothing is
            reported here (a run with plug-ins is refused for them on its own).
    """

    def __init__(self, run_path: Path, listed: object) -> None:
        self.active = not listed
        self.records = run_path / "records.jsonl"
        self.meta = run_path / "meta.json"
        self.found: dict[str, str] = {}

    def _note(self, kind: str, line: str) -> None:
        self.found.setdefault(kind, line)  # the first of each kind names the place; the rest add nothing

    def record(self, line: int, record: Record) -> None:
        """Look at one record (``line`` counts from 1)."""
        if not self.active:
            return
        where = f"{self.records}, line {line}"
        if record.get("plugins"):
            self._note(
                "plugins", f"{where}: plugins {_short(record['plugins'])}, but {self.meta} lists no plug-in"
            )
        episode = record.get("episode_type", EpisodeType.PRIMARY)
        if not is_primary(record):
            self._note(
                "episode",
                f"{where}: episode_type {episode!r} (an auxiliary episode a plug-in asks for), "
                f"but {self.meta} lists no plug-in",
            )
        if record.get("round_addons"):
            self._note(
                "round_addons",
                f"{where}: round_addons {record['round_addons']!r}, but {self.meta} lists no plug-in",
            )

    def trajectory(self, path: Path, trajectory: Mapping[str, object]) -> None:
        """Look at one trajectory (``i/<name>.json``)."""
        if not self.active:
            return
        if trajectory.get("plugins"):
            self._note("trajectory plugins", f"{path}: plugins entries, but {self.meta} lists no plug-in")
        events = trajectory.get("events")
        for at, event in enumerate(events if isinstance(events, list) else []):
            observation = event.get("observation") if isinstance(event, Mapping) else None
            extra = observation.get("extra") if isinstance(observation, Mapping) else None
            if extra:  # what a plug-in shows the learner; the environment alone leaves it empty
                self._note(
                    "extra",
                    f"{path}: event {at}: observation extra {_short(extra)} is not empty, "
                    f"but {self.meta} lists no plug-in",
                )
                return

    def problems(self) -> list[str]:
        """The first trace of each kind found, one line each."""
        return list(self.found.values())


def _short(value: object, limit: int = 80) -> str:
    """A value in at most ``limit`` characters: an answer slipped in ``extra`` may be a whole grid."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
