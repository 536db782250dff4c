"""The viewer plays and replays only the tracks it is handed, resolved by whoever serves it."""

from __future__ import annotations

import pytest

from continual_arc.tracks.registry import get_track
from continual_arc.view.play import PlayError, PlaySessions


def test_a_track_not_handed_to_the_sessions_is_refused_by_name() -> None:
    toy = get_track("toy")  # resolved here, at the edge, as the view command does
    plays = PlaySessions(tracks={"toy": toy})
    task = toy.source_for("stream").task_ids()[0]
    opened = plays.start("toy", task, "stream", seed=3)
    assert opened["track"] == "toy" and "token" in opened
    with pytest.raises(PlayError, match=r"no track named 'arc1' is served here; served: toy"):
        plays.start("arc1", task, "stream", seed=3)  # installed, but not handed to these sessions


def test_the_default_serves_every_installed_track() -> None:
    opened = PlaySessions().start("toy", "toy-d1-c1", "stream", seed=3)
    assert opened["track"] == "toy"
