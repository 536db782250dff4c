"""What a model-backed learner reports of each instance, and how it continues a resumed run.

`SessionReports` is mixed into the learners that call a model through a
`ModelSession`: each instance's counts and messages for its record and
trajectory, and ``resume_from``, which the runner calls only when a run is resumed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..json_types import JSONObject, JSONValue
from .carry import last_resources
from .counts import COUNT_KEYS
from .model_session import ModelSession, ModelSettings

__all__ = ["SessionReports", "last_resources"]


class SessionReports:
    """What a model-backed learner reports of each instance, from its session's counts.

    Mixed into a learner that has ``session``, ``settings`` and ``_keys`` (each user's instance
    key in the current round).
    """

    session: ModelSession
    settings: ModelSettings
    _keys: dict[int, str]

    def instance_resources(self, user: int) -> dict[str, float]:
        """Calls, tokens and cost of ``user``'s instance that just ended (the proxy's counts)."""
        key = self._keys.get(user)
        return self.session.settle(key) if key is not None else dict.fromkeys(COUNT_KEYS, 0.0)

    def join_run(self, run_id: str) -> None:
        """Name the run at the proxy after the run directory's id (unless ``run_id`` was given).

        A resumed run is then the same run at the proxy: its killed round's calls count against
        its spend cap, whether the proxy kept running or was restarted on its ledger.
        """
        self.session.join_run(run_id)

    def resume_from(self, records: Sequence[Mapping[str, JSONValue]]) -> None:
        """Continue a resumed run: its counts from the last committed record, its spend told to the proxy.

        Called with no records too (a run killed in its first round): the session then counts its
        calls apart from the killed process's all the same (`ModelSession.resume`).

        Raises:
            ProxyCountsError: the proxy could not be told the run's spend so far.
        """
        self.session.resume(last_resources(records))

    def _session_log(self, user: int, base: Mapping[str, JSONValue]) -> JSONObject | None:
        """``base`` with the model, the source of the counts, the counts and every message."""
        key = self._keys.get(user)
        if key is None:
            return None
        return {
            **base,
            "model": self.settings.public(),
            "counted_by": self.session.counted_by,
            "resources": {**self.instance_resources(user)},
            "messages": self.session.transcript(key),
        }
